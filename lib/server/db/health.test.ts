import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/lib/server/testing/databases";
import { askHealth } from "@/lib/server/testing/health";
import { useDatabase, type Database } from ".";

/** A database whose SELECT 1 does what `answer` says (a stand-in: only the health check's view of it). */
function fakeDb(answer: () => Promise<unknown>): Database {
  return { kind: "postgres", prisma: { $queryRaw: answer } } as unknown as Database;
}

describe("GET /api/v1/health", () => {
  process.env.CUESCOPE_HEALTH_TIMEOUT_MS = "500";
  afterAll(() => {
    delete process.env.CUESCOPE_HEALTH_TIMEOUT_MS;
  });

  for (const kind of testDatabases()) {
    it(`answers 200 naming the database (${kind.name})`, async () => {
      const db = await kind.open();
      try {
        useDatabase(db);
        const answer = await askHealth();
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({
          ok: true,
          service: "cuescope",
          database: kind.name,
          eventLoop: { worstLagMs: expect.any(Number), windowS: 60 },
        });
      } finally {
        await db.close();
      }
    }, 60_000);
  }

  it("answers 503 with Retry-After within its limit when SELECT 1 hangs", async () => {
    useDatabase(fakeDb(() => new Promise(() => {})));
    const answer = await askHealth();
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe("5");
    expect(answer.ms).toBeLessThan(3_000);
    expect(answer.body).toMatchObject({ ok: false, service: "cuescope", error: { code: "unavailable" } });
  });

  it("answers 503, not 500, for any failure of the database (the reason goes to the log, not the answer)", async () => {
    useDatabase(fakeDb(() => Promise.reject(new Error('password authentication failed for user "secret"'))));
    const answer = await askHealth();
    expect(answer.status).toBe(503);
    expect(JSON.stringify(answer.body)).not.toContain("secret");
  });
});
