import "server-only";
import type { TCompareQuery, TRunComparison, TTurnDecision } from "@/lib/contracts";
import { bucketOfTurn, DIGEST_BUCKET_TURNS } from "@/lib/derived/compare/decision-digests";
import { firstDifferingTurn, turnDifference } from "@/lib/derived/compare/turn-difference";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { DIGESTS_SINCE_VERSION } from "@/lib/server/rebuild/derived-version";
import { readWindowChunks } from "@/lib/server/runs/stored-decisions";

type RunRef = { projectId: string; id: string; runId: string };

/** At most this many differing buckets are read for one step (only the first and last common buckets can differ outside the range). */
const MAX_BUCKET_READS = 4;

/**
 * `GET /api/v1/compare?a=…&b=…&turn=N&direction=next|previous|at` (docs/compare.md): where two runs
 * of the project decided differently. Both runs are looked up in the caller's project only, so a run
 * of another project is unknown (404 naming which). Differences are found through the digests the
 * rebuild stores per bucket of 256 turn numbers: one index read of both runs' digests up to the
 * first bucket that differs in the asked direction, then the decision chunks of that bucket only —
 * never either run whole, however long.
 */
export async function compareRuns(db: Database, projectId: string, query: TCompareQuery): Promise<TRunComparison> {
  const [a, b] = await Promise.all([runOf(db, projectId, query.a, "a"), runOf(db, projectId, query.b, "b")]);
  const heads = await storedHeads(db, projectId, [a.id, b.id]);
  const headA = heads.get(a.id);
  const headB = heads.get(b.id);
  const lastTurns = { a: headA?.lastTurn ?? null, b: headB?.lastTurn ?? null };
  const ready = (headA?.derivedVersion ?? 0) >= DIGESTS_SINCE_VERSION && (headB?.derivedVersion ?? 0) >= DIGESTS_SINCE_VERSION;
  const common: [number, number] | null = lastTurns.a === null || lastTurns.b === null ? null : [0, Math.min(lastTurns.a, lastTurns.b)];
  const answer: TRunComparison = {
    a: a.runId,
    b: b.runId,
    ready,
    commonTurns: common,
    lastTurns,
    first: null,
    turn: null,
    decisions: null,
  };
  if (!ready || !common) return answer;

  answer.first = await findDifference(db, a, b, common, 0, "next");
  const { turn, direction } = query;
  if (turn === undefined)
    answer.turn = direction === "previous" ? await findDifference(db, a, b, common, common[1], "previous") : answer.first;
  else if (direction === "at") answer.turn = turn;
  else answer.turn = await findDifference(db, a, b, common, direction === "next" ? turn + 1 : turn - 1, direction);
  if (answer.turn !== null) {
    const at = answer.turn;
    const [turnsA, turnsB] = await Promise.all([turnsIn(db, a, at, at), turnsIn(db, b, at, at)]);
    const [decisionA, decisionB] = [turnsA.find((t) => t.turn === at), turnsB.find((t) => t.turn === at)];
    answer.decisions = { a: decisionA ?? null, b: decisionB ?? null, difference: turnDifference(decisionA, decisionB) };
  }
  return answer;
}

async function runOf(db: Database, projectId: string, runId: string, which: "a" | "b"): Promise<RunRef> {
  const run = await db.prisma.run.findUnique({ where: { projectId_runId: { projectId, runId } }, select: { id: true, runId: true } });
  if (!run) throw new DomainError("not_found", `run ${which}: no run ${JSON.stringify(runId)} in this project`, which);
  return { projectId, ...run };
}

/** Each run's stored rebuild: its derived version and last rebuilt turn (from its last chunk's index row). */
async function storedHeads(db: Database, projectId: string, runPks: string[]) {
  const rows = await db.prisma.$queryRawUnsafe<{ runPk: string; derivedVersion: number; lastTurn: number | null }[]>(
    `SELECT d."run_pk" AS "runPk", d."derived_version" AS "derivedVersion",
            (SELECT c."last_turn" FROM "run_decision_chunks" c
              WHERE c."project_id" = d."project_id" AND c."run_pk" = d."run_pk" ORDER BY c."chunk" DESC LIMIT 1) AS "lastTurn"
       FROM "run_decisions" d WHERE d."project_id" = $1 AND d."run_pk" = ANY($2::text[])`,
    projectId,
    runPks,
  );
  return new Map(
    rows.map((row) => [row.runPk, { derivedVersion: row.derivedVersion, lastTurn: row.lastTurn === null ? null : Number(row.lastTurn) }]),
  );
}

/**
 * The first turn from `from` on (next) or back from it (previous), within `common`, where the runs'
 * decisions differ: the nearest bucket whose digests differ that way, then the turns of that bucket.
 */
async function findDifference(
  db: Database,
  a: RunRef,
  b: RunRef,
  common: [number, number],
  from: number,
  direction: "next" | "previous",
): Promise<number | null> {
  let at = Math.max(common[0], Math.min(common[1], from));
  if ((direction === "next" && from > common[1]) || (direction === "previous" && from < common[0])) return null;
  for (let reads = 0; reads < MAX_BUCKET_READS; reads++) {
    const bucket = await differingBucket(db, a, b, bucketOfTurn(at), bucketOfTurn(common[1]), direction);
    if (bucket === null) return null;
    const lo = Math.max(common[0], bucket * DIGEST_BUCKET_TURNS);
    const hi = Math.min(common[1], (bucket + 1) * DIGEST_BUCKET_TURNS - 1);
    const range = direction === "next" ? { from: Math.max(lo, at), to: hi } : { from: lo, to: Math.min(hi, at) };
    if (range.from <= range.to) {
      const [turnsA, turnsB] = await Promise.all([turnsIn(db, a, range.from, range.to), turnsIn(db, b, range.from, range.to)]);
      const turn = firstDifferingTurn(turnsA, turnsB, range, direction);
      if (turn !== null) return turn;
    }
    // The bucket's digests differ outside the range asked (before `from`, or past the shorter run's end): go on.
    at = direction === "next" ? hi + 1 : lo - 1;
    if (at > common[1] || at < common[0]) return null;
  }
  throw new DomainError("unavailable", "the comparison read more buckets than it may for one step; try again");
}

/** The nearest bucket from `bucket` in `direction` (within [0, last]) whose digests differ between the runs, or that only one has. */
async function differingBucket(
  db: Database,
  a: RunRef,
  b: RunRef,
  bucket: number,
  last: number,
  direction: "next" | "previous",
): Promise<number | null> {
  const [lo, hi] = direction === "next" ? [bucket, last] : [0, bucket];
  const rows = await db.prisma.$queryRawUnsafe<{ bucket: number }[]>(
    `SELECT "bucket" FROM
       (SELECT "bucket", "digest" FROM "run_decision_digests" WHERE "project_id" = $1 AND "run_pk" = $2 AND "bucket" BETWEEN $4 AND $5) x
       FULL JOIN
       (SELECT "bucket", "digest" FROM "run_decision_digests" WHERE "project_id" = $1 AND "run_pk" = $3 AND "bucket" BETWEEN $4 AND $5) y
       USING ("bucket")
      WHERE x."digest" IS DISTINCT FROM y."digest"
      ORDER BY "bucket" ${direction === "next" ? "ASC" : "DESC"} LIMIT 1`,
    a.projectId,
    a.id,
    b.id,
    lo,
    hi,
  );
  return rows.length ? Number(rows[0].bucket) : null;
}

/** The run's rebuilt turns from `from` to `to`, from the stored chunks that overlap them. */
async function turnsIn(db: Database, run: RunRef, from: number, to: number): Promise<TTurnDecision[]> {
  const window = await readWindowChunks(db, run, from, to);
  if (!window) return [];
  const turns: TTurnDecision[] = [];
  for (const text of window.chunkTexts)
    for (const turn of JSON.parse(text) as TTurnDecision[]) if (turn.turn >= from && turn.turn <= to) turns.push(turn);
  return turns;
}
