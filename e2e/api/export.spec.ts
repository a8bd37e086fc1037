import { expect, test, type APIRequestContext } from "@playwright/test";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { apiTarget } from "@/e2e/support/targets";

/**
 * GET /api/v1/reviewer/candidates/export against the running servers: every bad parameter is a 400
 * JSON answer before any download starts, and every valid download is read to its last byte and is
 * complete (a connection reset fails the read). Seen before: resets mid-stream under odd parameters.
 */
const EXPORT = "/api/v1/reviewer/candidates/export";

test.describe("Reviewer export", () => {
  test.beforeAll(async ({ request }, info) => {
    const target = apiTarget(info);
    if (target.database !== "postgres") return; // the embedded server has its demo data; leave it as it is
    await ingestRun(request, target.key, `export-spec-${Date.now()}`);
  });

  test("bad parameters answer 400 as JSON, naming the parameter", async ({ request }, info) => {
    const { key } = apiTarget(info);
    const foreign = Buffer.from(JSON.stringify({ s: null, r: "no-such-run", n: -1 })).toString("base64url");
    const bad: [string, string][] = [
      ["format=xml", "format"],
      ["cursor=nope", "cursor"],
      [`cursor=${foreign}`, "cursor"],
      ["violations=maybe", "violations"],
      ["agent=%00", "agent"],
      ["runId=a%00b", "runId"],
      ["from=2026-13-01T00:00:00Z", "from"],
      ["to=0000-01-01T00:00:00Z", "to"],
      ["limit=-1", "limit"],
    ];
    for (const format of ["csv", "json"]) {
      for (const [query, path] of bad) {
        const response = await request.get(`${EXPORT}?format=${format}&${query}`, { headers: { authorization: `Bearer ${key}` } });
        expect(response.status(), query).toBe(400);
        expect(response.headers()["content-type"]).toMatch(/application\/json/);
        const body = (await response.json()) as { error: { code: string; path?: string } };
        expect(body.error.code).toBe("invalid");
        if (path !== "format") expect(body.error.path, query).toBe(path);
      }
    }
  });

  test("valid and odd parameters give complete downloads, read to the last byte", async ({ request }, info) => {
    const { key } = apiTarget(info);
    const queries = [
      "",
      "violations=1",
      "from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z",
      `runId=${encodeURIComponent(" :%+;&=,@$<é😀")}`,
      `agent=${"a".repeat(4000)}`,
      "unknown=1",
    ];
    for (const query of queries) {
      const csv = await request.get(`${EXPORT}?format=csv&${query}`, { headers: { authorization: `Bearer ${key}` } });
      expect(csv.status(), query).toBe(200);
      const text = await csv.text();
      expect(text.endsWith("\r\n")).toBe(true);
      const lines = text.split("\r\n").slice(0, -1);
      expect(lines[0].startsWith("run_id,")).toBe(true);
      expect(lines.some((line) => line.startsWith("#error,"))).toBe(false);

      const json = await request.get(`${EXPORT}?format=json&${query}`, { headers: { authorization: `Bearer ${key}` } });
      expect(json.status(), query).toBe(200);
      const rows = JSON.parse(await json.text()) as { runId: string }[];
      expect(rows).toHaveLength(lines.length - 1);
      if (query === "") expect(rows.length).toBeGreaterThan(0);
    }
  });
});

async function ingestRun(request: APIRequestContext, key: string, runId: string): Promise<void> {
  const events = generateEtfRun({ runId, seed: 41, turns: 60, anomalies: true }).events;
  for (let at = 0; at < events.length; at += 500) {
    const response = await request.post("/api/v1/ingest", {
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      data: { batch: events.slice(at, at + 500) },
    });
    expect(response.status()).toBe(207);
  }
  // The server rebuilds the run in the background, storing the Reviewer audit the export reads with
  // its decisions; reading the decisions waits for that rebuild.
  const decisions = await request.get(`/api/v1/runs/${encodeURIComponent(runId)}/decisions`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(decisions.status()).toBe(200);
  expect(decisions.headers()["x-cuescope-stale-events"]).toBe("0");
}
