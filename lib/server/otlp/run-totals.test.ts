import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OtlpRecordDraft } from "@/lib/otlp/records";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { testDatabases } from "@/lib/server/testing/databases";
import { listOtlpRecords } from "./list-records";
import { storeOtlpRecords } from "./store-records";

/**
 * A run's OpenTelemetry counts and token sums are kept as its records are stored (otlp_run_totals,
 * migration 20270108000000_otlp_run_totals), so the run page's panel reads one row per kind. The
 * expected figures are counted here from the drafts themselves, each key once.
 */

const T0 = Date.UTC(2026, 11, 5, 9);
const at = (i: number) => new Date(T0 + i * 1000).toISOString();

function modelRequest(runId: string, i: number, input: number | null, output: number | null): OtlpRecordDraft {
  return {
    kind: "model_request",
    runId,
    key: `span:${runId}:${i}`,
    ts: at(i),
    turn: i,
    data: { inputTokens: input, outputTokens: output },
  };
}
const span = (runId: string, i: number): OtlpRecordDraft => ({
  kind: "span",
  runId,
  key: `span:${runId}:s${i}`,
  ts: at(i),
  turn: null,
  data: {},
});
const log = (runId: string, i: number): OtlpRecordDraft => ({
  kind: "log",
  runId,
  key: `log:${runId}:${i}`,
  ts: at(i),
  turn: null,
  data: {},
});

/** What the panel should say of a run, counted from the drafts (each key once). */
function expected(drafts: readonly OtlpRecordDraft[], runId: string) {
  const mine = [...new Map(drafts.filter((d) => d.runId === runId).map((d) => [d.key, d])).values()];
  const of = (kind: string) => mine.filter((d) => d.kind === kind);
  const sum = (name: "inputTokens" | "outputTokens") => of("model_request").reduce((n, d) => n + ((d.data[name] as number | null) ?? 0), 0);
  return {
    counts: { modelRequests: of("model_request").length, spans: of("span").length, logs: of("log").length },
    tokens: { input: sum("inputTokens"), output: sum("outputTokens") },
  };
}

describe.each(testDatabases())("a run's OpenTelemetry totals on $name", (kind) => {
  let db: Database;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await authenticate(db, `Bearer ${(await createKey(db, "otlp totals")).secret}`)).projectId;
  }, 60_000);
  afterAll(async () => db?.close());

  it("counts each stored record once per kind and sums its model requests' tokens, through duplicates and re-exports", async () => {
    const first = [
      modelRequest("a", 1, 120, 30),
      modelRequest("a", 2, 80, null),
      modelRequest("a", 2, 80, null), // the same span twice in one export
      modelRequest("a", 3, null, 7.5),
      span("a", 1),
      log("a", 1),
      log("a", 2),
      modelRequest("b", 1, 1_000_000, 2),
    ];
    const second = [modelRequest("a", 1, 120, 30), modelRequest("a", 4, 5, 5), span("b", 9)]; // a re-export and new records
    await storeOtlpRecords(db, projectId, first);
    await Promise.all([storeOtlpRecords(db, projectId, second), storeOtlpRecords(db, projectId, second)]);
    const all = [...first, ...second];
    for (const runId of ["a", "b"]) {
      const answer = await listOtlpRecords(db, projectId, runId, { limit: 2 });
      expect({ counts: answer.counts, tokens: answer.tokens }, runId).toEqual(expected(all, runId));
    }
    expect(expected(all, "a")).toEqual({ counts: { modelRequests: 4, spans: 1, logs: 2 }, tokens: { input: 205, output: 42.5 } });
  });

  it("the migration's backfill counts the records stored before it the same way", async () => {
    const sql = readFileSync("prisma/migrations/20270108000000_otlp_run_totals/migration.sql", "utf8");
    const backfill = sql.slice(sql.indexOf("-- The records stored before this migration."));
    const read = () =>
      db.prisma.otlpRunTotal
        .findMany({ where: { projectId }, orderBy: [{ runId: "asc" }, { kind: "asc" }] })
        .then((rows) => rows.map((r) => [r.runId, r.kind, Number(r.records), Number(r.inputTokens), Number(r.outputTokens)]));
    const kept = await read();
    expect(kept.length).toBeGreaterThan(0);
    await db.executeSql(`DELETE FROM "otlp_run_totals" WHERE "project_id" = $1`, [projectId]);
    await db.executeSql(backfill.replace(/ FROM "otlp_records"/, ` FROM "otlp_records" WHERE "project_id" = '${projectId}'`));
    expect(await read()).toEqual(kept);
  });

  it("go with their project", async () => {
    const other = (await authenticate(db, `Bearer ${(await createKey(db, "otlp totals, deleted")).secret}`)).projectId;
    await storeOtlpRecords(db, other, [modelRequest("c", 1, 3, 4), log("c", 1)]);
    expect(await db.prisma.otlpRunTotal.count({ where: { projectId: other } })).toBe(2);
    await db.prisma.project.delete({ where: { id: other } });
    expect(await db.prisma.otlpRunTotal.count({ where: { projectId: other } })).toBe(0);
    expect(await db.prisma.otlpRunTotal.count({ where: { projectId } })).toBeGreaterThan(0);
  });
});
