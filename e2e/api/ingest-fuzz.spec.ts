/**
 * Fuzzing POST /api/v1/ingest on the running servers (PGlite and PostgreSQL): batches mixing valid
 * events (odd but legal content) with events the contract must reject never get a 500; every valid
 * sibling is created; each rejection names its path; and what GET /api/v1/runs/:runId/events
 * returns is exactly what the contract accepted.
 */
import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { canonicalJson } from "@/lib/core";
import { answerMismatches, expectedStored, mixedBatch } from "@/lib/server/ingest/fuzz-events";
import { apiTarget } from "@/e2e/support/targets";

test("ingest never answers 500, stores every valid sibling, and stores what it accepted", async ({ request }, info) => {
  test.setTimeout(180_000);
  const target = apiTarget(info);
  const auth = { authorization: `Bearer ${target.key}` };
  const tag = `${Date.now().toString(36)}-${info.project.name}`;
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constant(null).chain(() => {
        // odd but legal run ids: any storable text around a unique counter
        const k = ++n;
        return fc
          .string({ unit: "binary", maxLength: 10 })
          .map((s) => `fuzz ${tag} ${k} ${s.replace(/\u0000/g, "0")}`.slice(0, 120))
          .chain((runId) => mixedBatch(runId, `${tag}/${k}/`).map((entries) => ({ runId, entries })));
      }),
      async ({ runId, entries }) => {
        const response = await request.post("/api/v1/ingest", { headers: auth, data: { batch: entries.map((e) => e.raw) } });
        expect(response.status(), await response.text()).toBe(207);
        const answer = (await response.json()) as { results: { status: string; error?: { path: string; message: string } }[] };
        expect(answerMismatches(entries, answer.results)).toEqual([]);
        const expected = expectedStored(entries);
        const read = await request.get(`/api/v1/runs/${encodeURIComponent(runId)}/events?limit=5000`, { headers: auth });
        if (expected.size === 0) {
          expect([200, 404]).toContain(read.status());
          return;
        }
        expect(read.status(), await read.text()).toBe(200);
        const stored = ((await read.json()) as { events: { event: { id: string } }[] }).events.map((e) => e.event);
        expect(stored).toHaveLength(expected.size);
        for (const event of stored) expect(canonicalJson(event), event.id).toBe(expected.get(event.id));
      },
    ),
    { numRuns: 60, interruptAfterTimeLimit: 120_000 },
  );
});

test("a batch whose every event is unstorable still answers 207 with one error each", async ({ request }, info) => {
  const target = apiTarget(info);
  const base = { runId: `odd-${Date.now()}`, type: "meter.requests", ts: "2026-11-29T10:00:00Z", turn: 0, body: { used: 1 } };
  const deep = `${"[".repeat(100_000)}1${"]".repeat(100_000)}`; // deeper than any recursive code survives
  const batch = [
    { ...base, id: "nul\u0000" },
    { ...base, id: `s-${Date.now()}`, runId: "lone\ud800" },
    { ...base, id: `t-${Date.now()}`, turn: 2 ** 31 },
    { ...base, id: `u-${Date.now()}`, body: { used: 2 ** 53 } },
    { ...base, id: `y-${Date.now()}`, ts: "0000-01-01T00:00:00Z" },
    { ...base, id: `d-${Date.now()}`, deep: "DEEP" },
  ];
  const body = JSON.stringify({ batch }).replace('"DEEP"', deep);
  const response = await request.post("/api/v1/ingest", {
    headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json" },
    data: body,
  });
  expect(response.status()).toBe(207);
  const answer = await response.json();
  expect(answer.summary).toEqual({ created: 0, duplicate: 0, error: batch.length });
  expect(answer.results.map((r: { error: { path: string } }) => r.error.path.split(".")[0])).toEqual([
    "id",
    "runId",
    "turn",
    "body",
    "ts",
    "deep",
  ]);
});
