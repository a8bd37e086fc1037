import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "./generated/client";
import { isTransientDatabaseError, isUniqueViolation } from "./errors";
import { asBackgroundWork } from "./pglite-gate";
import { RemotePglite } from "./pglite-remote";

/**
 * The embedded database on its own thread: the server's thread keeps turning while a statement
 * runs, and what crosses between the threads (rows, errors with their codes, Prisma's transactions,
 * the background mark, a COPY's bytes) arrives as it would in-process. Asserted by order and by
 * content, not by timing.
 */
describe("the embedded database's thread", () => {
  let remote: RemotePglite;
  let prisma: PrismaClient;
  beforeAll(async () => {
    remote = await RemotePglite.start("memory://");
    prisma = new PrismaClient({ adapter: remote.prismaAdapter() });
    await remote.exec("CREATE TABLE t (n int PRIMARY KEY, note text); CREATE TABLE log (what text, at serial)");
  }, 60_000);
  afterAll(async () => {
    await prisma.$disconnect();
    await remote.close();
  });

  it("keeps the server's event loop turning while a long statement runs", async () => {
    let done = false;
    let turns = 0;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    // Hundreds of milliseconds of work inside the database: in-process, the loop got no turn meanwhile.
    const answer = await remote.query<{ c: number }>("SELECT count(*)::int AS c FROM generate_series(1, 3000000)");
    done = true;
    expect(answer.rows).toEqual([{ c: 3_000_000 }]);
    expect(turns).toBeGreaterThan(10);
  });

  it("answers raw statements with PGlite's parsed rows, and a script with each statement's", async () => {
    const one = await remote.query<{ n: number; j: unknown; d: Date }>(
      `SELECT 7 AS n, '{"a":[1,"x"]}'::jsonb AS j, '2026-12-05T10:00:00Z'::timestamptz AS d`,
    );
    expect(one.rows).toEqual([{ n: 7, j: { a: [1, "x"] }, d: new Date("2026-12-05T10:00:00Z") }]);
    const inserted = await remote.query("INSERT INTO t (n, note) VALUES ($1, $2), ($3, $4)", [1, "one", 2, "two"]);
    expect(inserted.affectedRows).toBe(2);
    const script = await remote.exec("SELECT 1 AS a; SELECT note FROM t ORDER BY n");
    expect(script.map((r) => r.rows)).toEqual([[{ a: 1 }], [{ note: "one" }, { note: "two" }]]);
  });

  it("fails a statement whose parameters cannot cross threads, and only that one", async () => {
    await expect(remote.query("SELECT $1::text AS v", [() => "a function"])).rejects.toThrow(/could not be cloned/);
    expect((await remote.query("SELECT $1::text AS v", ["text"])).rows).toEqual([{ v: "text" }]);
  });

  it("keeps a failed statement's SQLSTATE, raw and through Prisma", async () => {
    const raw = await remote.query("INSERT INTO t (n) VALUES (1)").catch((error: unknown) => error);
    expect(raw).toBeInstanceOf(Error);
    expect((raw as { code?: string }).code).toBe("23505");
    expect(isUniqueViolation(raw)).toBe(true);

    const viaPrisma = await prisma.$executeRawUnsafe("INSERT INTO t (n) VALUES (1)").catch((error: unknown) => error);
    expect(isUniqueViolation(viaPrisma)).toBe(true);
    expect(String((viaPrisma as Error).message)).toMatch(/23505/);
  });

  it("runs Prisma's interactive transactions on the thread: committed, or rolled back whole", async () => {
    await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("INSERT INTO t (n, note) VALUES (10, 'kept')");
      await tx.$executeRawUnsafe("INSERT INTO t (n, note) VALUES (11, 'kept')");
    });
    const failed = await prisma
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe("INSERT INTO t (n, note) VALUES (20, 'lost')");
        throw new Error("changed my mind");
      })
      .catch((error: unknown) => error);
    expect((failed as Error).message).toBe("changed my mind");
    const rows = await prisma.$queryRawUnsafe<Array<{ n: number }>>("SELECT n FROM t WHERE n >= 10 ORDER BY n");
    expect(rows).toEqual([{ n: 10 }, { n: 11 }]);
  });

  it("hands a COPY's bytes over whole: PostgreSQL's binary COPY signature, then the rows", async () => {
    const bytes = await remote.copy("SELECT n FROM t WHERE n = 2");
    // "PGCOPY\n\377\r\n\0" (the binary format's header), then one row of one int4 field: 2.
    expect([...bytes.subarray(0, 11)]).toEqual([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    const row = bytes.subarray(19);
    expect([...row.subarray(0, 10)]).toEqual([0, 1, 0, 0, 0, 4, 0, 0, 0, 2]);
  });

  it("lets requests' statements go before background work's that waited with them", async () => {
    await remote.exec("TRUNCATE log");
    const note = (what: string) => remote.query("INSERT INTO log (what) VALUES ($1)", [what]);
    let background: Array<Promise<unknown>> = [];
    let requests: Array<Promise<unknown>> = [];
    // A transaction keeps the database to itself; the statements sent meanwhile wait at the thread's
    // gate. The transaction's own statement is answered after the thread took in every message sent
    // before it, so they are all waiting when it commits (a few milliseconds later: well inside the
    // time after which a waiting background statement goes next anyway).
    await prisma.$transaction(async (tx) => {
      background = asBackgroundWork(() => [note("b0"), note("b1"), note("b2")]);
      requests = [note("r0"), note("r1")];
      await tx.$queryRawUnsafe("SELECT 1");
    });
    await Promise.all([...background, ...requests]);
    const order = await remote.query<{ what: string }>("SELECT what FROM log ORDER BY at");
    expect(order.rows.map((r) => r.what)).toEqual(["r0", "r1", "b0", "b1", "b2"]);
  });
});

describe("the embedded database's thread, failing", () => {
  it("fails to start as opening the database fails, naming why", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "cuescope-thread-")), "not-a-directory");
    writeFileSync(file, "a file where the data directory should be");
    await expect(RemotePglite.start(file)).rejects.toThrow();
  }, 60_000);

  it("answers every statement after the thread stopped with a connection error (a 503), not a hang", async () => {
    const remote = await RemotePglite.start("memory://");
    const waiting = remote.query("SELECT count(*) FROM generate_series(1, 2000000)").catch((error: unknown) => error);
    // The thread dies under the statement (as if it ran out of memory).
    await (remote as unknown as { worker: Worker }).worker.terminate();
    const lost = await waiting;
    expect(lost).toBeInstanceOf(Error);
    expect(isTransientDatabaseError(lost)).toBe(true);
    const later = await remote.query("SELECT 1").catch((error: unknown) => error);
    expect(isTransientDatabaseError(later)).toBe(true);
    expect((later as Error).message).toMatch(/embedded database's thread stopped/);
  }, 60_000);
});
