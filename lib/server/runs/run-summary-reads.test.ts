/**
 * The reads of a run's stored summary (the run's header, the runs list, a turn's or a window's
 * chunks) leave out its follow-up and fatigue sums: they are kept per key, stage and context stage,
 * and a review reminder's stage is its checkpoint, so they grow with the run (about 340 kB in a
 * 50,000-turn run), and every run page read them twice. Only the run's effectiveness reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZRunListQuery } from "@/lib/contracts";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { getRunEffectiveness } from "@/lib/server/trends/effectiveness";
import { findRun } from "./find-run";
import { listRuns } from "./list-runs";
import { getRunSummaries } from "./run-decisions";
import { getRunSummary } from "./run-reads";
import { readTurnChunk, readWholeDecisions } from "./stored-decisions";

const RUN = "summary-reads";

describe.each(testDatabases())("a run's summary reads on $name", (kind) => {
  let db: Database;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await authenticate(db, `Bearer ${(await createKey(db, "summary reads")).secret}`)).projectId;
    const events = generateEtfRun({ runId: RUN, seed: 11, turns: 120, anomalies: true }).events.map((e) => ({
      ...e,
      id: `${RUN}:${e.id}`,
    }));
    for (let i = 0; i < events.length; i += 1000) await ingestBatch(db, projectId, events.slice(i, i + 1000));
    await settleRebuilds(db);
  }, 120_000);
  afterAll(async () => db?.close());

  it("leave out the follow-up and fatigue sums, which only the run's effectiveness reads", async () => {
    const run = await findRun(db, projectId, RUN);
    // The rebuild stored them; review suggestions for every checkpoint together (contract §10), not one entry per checkpoint.
    const [stored] = await db.prisma.$queryRawUnsafe<{ keys: string[] }[]>(
      `SELECT array(SELECT jsonb_object_keys("summary"->'effectCounts')) AS "keys" FROM "run_decisions" WHERE "project_id" = $1 AND "run_pk" = $2`,
      projectId,
      run.id,
    );
    const reviewKeys = stored.keys.filter((k) => k.startsWith("effect.review."));
    expect(reviewKeys.length).toBeGreaterThan(0);
    expect(reviewKeys.every((k) => k.startsWith("effect.review.all."))).toBe(true);

    const summary = (await getRunSummaries(db, projectId, [run])).get(run.id)!;
    expect(summary.ok).toBe(true);
    expect(summary.ok && summary.summary.reminders.delivered).toBeGreaterThan(0);
    expect(summary.ok && "effectCounts" in summary.summary).toBe(false);
    const turn = await readTurnChunk(db, run, 10);
    expect(Object.keys(turn!.head.summary as object)).not.toContain("effectCounts");
    const whole = await readWholeDecisions(db, run);
    expect(Object.keys(whole!.head.summary as object)).not.toContain("effectCounts");

    // The header and the list say the same as before.
    const header = await getRunSummary(db, projectId, RUN);
    expect(header).toMatchObject({ runId: RUN, rebuildError: null, staleEvents: 0, rebuildPending: false });
    expect(header.reminders.delivered).toBe(summary.ok && summary.summary.reminders.delivered);
    const list = await listRuns(db, projectId, ZRunListQuery.parse({}));
    expect(list.runs.map((r) => [r.runId, r.reminders])).toEqual([[RUN, header.reminders]]);

    // The run's effectiveness still reads them: one review row for every checkpoint together.
    const effect = await getRunEffectiveness(db, projectId, RUN);
    const review = effect.rows.filter((r) => r.key === "review" && r.contextStage === null);
    expect(review).toHaveLength(1);
    expect(review[0].stage).toBeNull();
    expect(review[0].delivered + review[0].dropped).toBeGreaterThan(5);
  });
});
