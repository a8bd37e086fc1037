import "server-only";
import type { TReviewerCandidateRow, TReviewerCandidatesQuery, TReviewerCandidatesResponse } from "@/lib/contracts";
import { reviewerRows } from "@/lib/reviewer/rows";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";
import { getParsedRunDecisions } from "@/lib/server/runs/run-decisions";
import { loadRunEventsOfTypes, TIMELINE_EVENT_TYPES } from "@/lib/server/runs/run-events";
import { runFilterWhere } from "@/lib/server/runs/run-filters";

const RUNS_PER_READ = 20;

/**
 * The events the Reviewer rows read: the timeline's, plus the requests readings, which are "the facts
 * of the turn" R13's budget condition is evaluated on (without them every rule verdict would see
 * no reading and take the budget as holding).
 */
const REVIEWER_EVENT_TYPES = [...TIMELINE_EVENT_TYPES, "meter.requests"] as const;

interface Cursor {
  /** The run to continue in (runs go newest first), and how many of its rows were already given. */
  run: string;
  skip: number;
}

/**
 * `GET /api/v1/reviewer/candidates`: Reviewer candidates across the project's runs, newest run
 * first and by turn within a run, each with the rule's verdict and its violations.
 */
export async function listReviewerCandidates(
  db: Database,
  projectId: string,
  query: TReviewerCandidatesQuery,
): Promise<TReviewerCandidatesResponse> {
  const where = runFilterWhere(projectId, query, { startedOnly: true });
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const orderBy: Prisma.RunOrderByWithRelationInput[] = [{ startedAt: "desc" }, { id: "desc" }];
  const rows: TReviewerCandidateRow[] = [];
  let skip = cursor?.skip ?? 0;
  let after: { startedAt: Date | null; id: string } | undefined;
  if (cursor) {
    const run = await db.prisma.run.findFirst({ where: { id: cursor.run, projectId }, select: { startedAt: true, id: true } });
    if (!run) throw new DomainError("invalid", "the cursor's run is gone; start from the first page", "cursor");
    after = run;
  }

  for (;;) {
    const runs = await db.prisma.run.findMany({
      where: after ? { AND: [where, notBefore(after, rows.length === 0 && cursor !== undefined)] } : where,
      orderBy,
      take: RUNS_PER_READ,
    });
    for (const run of runs) {
      const result = await getParsedRunDecisions(db, run);
      if (!result.ok) continue;
      const events = await loadRunEventsOfTypes(db, run, REVIEWER_EVENT_TYPES);
      const mine = reviewerRows(events, result.decisions)
        .filter((row) => !query.violations || row.findings.length > 0)
        .map((row) => ({ runId: run.runId, task: run.task, agent: run.agent, model: run.model, ...row }));
      const remaining = mine.slice(skip);
      skip = 0;
      const room = query.limit - rows.length;
      rows.push(...remaining.slice(0, room));
      if (remaining.length > room) {
        return { rows, nextCursor: encodeCursor({ run: run.id, skip: mine.length - remaining.length + room }) };
      }
    }
    if (runs.length < RUNS_PER_READ) return { rows, nextCursor: null };
    after = runs[runs.length - 1];
  }
}

/** Runs from `run` on (inclusive, for the cursor's own run) in newest-first order. */
function notBefore(run: { startedAt: Date | null; id: string }, inclusive: boolean): Prisma.RunWhereInput {
  const id = inclusive ? { lte: run.id } : { lt: run.id };
  if (run.startedAt === null) return { startedAt: null, id };
  return { OR: [{ startedAt: { lt: run.startedAt } }, { startedAt: run.startedAt, id }, { startedAt: null }] };
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Cursor;
    if (
      cursor &&
      typeof cursor.run === "string" &&
      cursor.run.length > 0 &&
      cursor.run.length <= 128 &&
      !cursor.run.includes("\u0000") &&
      Number.isSafeInteger(cursor.skip) &&
      cursor.skip >= 0
    ) {
      return cursor;
    }
  } catch {
    // fall through
  }
  throw new DomainError("invalid", "query.cursor: not a cursor this API gave out: use the nextCursor of the previous page", "cursor");
}
