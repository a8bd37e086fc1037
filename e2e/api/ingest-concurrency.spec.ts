/**
 * Ten concurrent writers sending overlapping batches of the same events (several runs, each
 * writer in its own shuffled order and batch split) to the running servers: no 5xx other than 503
 * (and in practice none at all), and every event stored exactly once.
 */
import { expect, test } from "@playwright/test";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { readRunEventIds } from "@/lib/client/load";
import { apiTarget } from "@/e2e/support/targets";

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

test("10 concurrent writers of overlapping batches: zero 5xx but 503, every event stored exactly once", async ({ playwright }, info) => {
  test.setTimeout(180_000);
  const target = apiTarget(info);
  const tag = `conc-${Date.now().toString(36)}`;
  const runIds = Array.from({ length: 4 }, (_, r) => `${tag} run:${r}`);
  const events = runIds.flatMap((runId, r) =>
    generateEtfRun({ runId, seed: r + 11, turns: 12 }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` })),
  );
  const statuses: Record<number, number> = {};
  const answered = new Set<string>();
  const writers = Array.from({ length: 10 }, async (_, w) => {
    const api = await playwright.request.newContext({
      baseURL: target.baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${target.key}` },
    });
    const order = shuffle(events, w * 31 + 1);
    const size = 20 + w * 7;
    for (let i = 0; i < order.length; i += size) {
      const batch = order.slice(i, i + size);
      // a 503 is allowed (the client would retry it): retry it here as the client does
      for (let attempt = 0; ; attempt++) {
        const response = await api.post("/api/v1/ingest", { data: { batch }, timeout: 120_000 });
        statuses[response.status()] = (statuses[response.status()] ?? 0) + 1;
        if (response.status() === 503 && attempt < 10) {
          await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 500));
          continue;
        }
        expect(response.status(), await response.text()).toBe(207);
        const answer = (await response.json()) as { results: { id: string; status: string }[] };
        for (const result of answer.results) {
          expect(["created", "duplicate"], JSON.stringify(result)).toContain(result.status);
          answered.add(result.id);
        }
        break;
      }
    }
    await api.dispose();
  });
  await Promise.all(writers);
  console.log(`${info.project.name}: ${JSON.stringify(statuses)} for ${events.length} events × 10 writers`);

  const fiveXX = Object.entries(statuses).filter(([s]) => Number(s) >= 500 && Number(s) !== 503);
  expect(fiveXX).toEqual([]);
  expect(answered.size).toBe(events.length);
  const stored: string[] = [];
  for (const runId of runIds) stored.push(...(await readRunEventIds(target.baseURL, target.key, runId)));
  expect(stored.length).toBe(events.length); // no event twice
  expect(new Set(stored)).toEqual(new Set(events.map((e) => e.id)));
});
