import type { TReview, TReviewUpdate } from "@/lib/contracts";
import { actorOf, recordAudit, signedName } from "@/lib/server/audit/audit-log";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { reviewerRowColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";
import { findRun } from "@/lib/server/runs/find-run";
import { emptyReview, noSuchCandidate, REVIEW_COLUMNS, reviewOf, REVIEWS_WITH_ASSIGNEE, type ReviewColumns } from "./review-row";

/**
 * Gives, changes or takes back a verdict and comment on one Reviewer candidate, and assigns it
 * (docs/reviews.md). The candidate is the run's stored Reviewer row with this key: another
 * project's run, or a key the run's audit does not have, is not found. The assignee must be a
 * member of the project. The change is one transaction with its audit entry (`review.verdict`,
 * `review.assign`); a change that changes nothing writes neither. With `version`, a review changed
 * since it was read is refused (409) rather than overwritten.
 */
export async function updateReview(db: Database, caller: Caller, runId: string, reviewKey: string, body: TReviewUpdate): Promise<TReview> {
  const { projectId } = caller;
  const run = await findRun(db, projectId, runId);
  const candidates = await db.prisma.$queryRaw<{ turn: number; row: string; ordinal: number }[]>`
    SELECT rr."turn", rr."row", rr."ordinal" FROM "reviewer_rows" rr
     WHERE rr."project_id" = ${projectId} AND rr."run_pk" = ${run.id} AND rr."review_key" = ${reviewKey}
     ORDER BY rr."ordinal"
     LIMIT 1`;
  const candidate = candidates[0];
  if (!candidate) throw noSuchCandidate(runId, reviewKey);
  const row = reviewerRowColumn({ runPk: run.id, ordinal: candidate.ordinal, row: candidate.row });

  return db.prisma.$transaction(async (tx) => {
    if (body.assigneeId) {
      // In the transaction: a member being removed meanwhile (its row locked by the removal) is not assigned.
      const [member] = await tx.$queryRaw<unknown[]>`
        SELECT 1 FROM "project_members" WHERE "project_id" = ${projectId} AND "person_id" = ${body.assigneeId} FOR SHARE`;
      if (!member) {
        throw new DomainError(
          "invalid",
          `body.assigneeId: ${JSON.stringify(body.assigneeId)} is not a member of this project`,
          "assigneeId",
        );
      }
    }
    // The row exists from here on (version 0: nothing said yet), so two first writes queue on its lock.
    await tx.$executeRaw`
      INSERT INTO "reviews" ("project_id", "run_pk", "review_key", "turn", "version")
      VALUES (${projectId}, ${run.id}, ${reviewKey}, ${candidate.turn}, 0)
      ON CONFLICT DO NOTHING`;
    await tx.$queryRaw`SELECT 1 FROM "reviews" WHERE "project_id" = ${projectId} AND "run_pk" = ${run.id} AND "review_key" = ${reviewKey} FOR UPDATE`;
    const locked = await tx.review.findUniqueOrThrow({ where: { projectId_runPk_reviewKey: { projectId, runPk: run.id, reviewKey } } });
    if (body.version !== undefined && body.version !== locked.version) {
      throw new DomainError(
        "conflict",
        `the review changed since you read it (version ${body.version}, now ${locked.version}): read it again and decide`,
        "version",
      );
    }
    const verdict = body.verdict === undefined ? locked.verdict : body.verdict;
    const comment = body.comment === undefined ? locked.comment : blankToNull(body.comment);
    const assignee = body.assigneeId === undefined ? locked.assigneePersonId : body.assigneeId;
    const judged = verdict !== locked.verdict;
    const commented = comment !== locked.comment;
    const assigned = assignee !== locked.assigneePersonId;
    if (!judged && !commented && !assigned && locked.version === 0) {
      // Nothing said of it yet, and nothing said now: no row either.
      await tx.review.delete({ where: { projectId_runPk_reviewKey: { projectId, runPk: run.id, reviewKey } } });
      return emptyReview(runId, reviewKey, candidate.turn);
    }
    if (judged || commented || assigned) {
      const now = new Date();
      await tx.review.update({
        where: { projectId_runPk_reviewKey: { projectId, runPk: run.id, reviewKey } },
        data: {
          version: { increment: 1 },
          updatedAt: now,
          comment,
          // A new verdict is the caller's, with what the rules said as they saw it (the trends compare
          // the two); a comment alone changes neither.
          ...(judged
            ? {
                verdict,
                ruleFindings: verdict === null ? [] : row.findings,
                dispatched: row.dispatches.length > 0,
                reviewedAt: verdict === null ? null : now,
                reviewerPersonId: verdict === null ? null : (caller.person?.id ?? null),
                reviewerKeyId: verdict === null ? null : (caller.key?.id ?? null),
                reviewerName: verdict === null ? null : signedName(caller),
              }
            : {}),
          ...(assigned ? { assigneePersonId: assignee, assignedAt: assignee === null ? null : now } : {}),
        },
      });
      const target = { id: `${runId}/${reviewKey}`, name: `run ${runId}, turn ${candidate.turn}` };
      const actor = actorOf(caller);
      if (judged || commented) {
        await recordAudit(tx, projectId, actor, {
          action: "review.verdict",
          target,
          before: { verdict: locked.verdict, comment: locked.comment },
          after: { verdict, comment, ruleFindings: judged ? (verdict === null ? [] : row.findings) : locked.ruleFindings },
        });
      }
      if (assigned) {
        const names = await personNames(tx, [locked.assigneePersonId, assignee]);
        await recordAudit(tx, projectId, actor, {
          action: "review.assign",
          target,
          before: who(locked.assigneePersonId, names),
          after: who(assignee, names),
        });
      }
    }
    const [read] = await tx.$queryRaw<ReviewColumns[]>`
      SELECT ${REVIEW_COLUMNS}
        FROM ${REVIEWS_WITH_ASSIGNEE}
       WHERE rv."project_id" = ${projectId} AND rv."run_pk" = ${run.id} AND rv."review_key" = ${reviewKey}`;
    return reviewOf(runId, read)!;
  });
}

/** An empty or all-blank comment is no comment. */
function blankToNull(text: string | null): string | null {
  return text === null || text.trim() === "" ? null : text;
}

type PeopleReader = {
  person: {
    findMany(args: { where: { id: { in: string[] } }; select: { id: true; name: true } }): Promise<{ id: string; name: string }[]>;
  };
};

async function personNames(tx: PeopleReader, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = ids.filter((id): id is string => id !== null);
  if (wanted.length === 0) return new Map();
  const people = await tx.person.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } });
  return new Map(people.map((person) => [person.id, person.name]));
}

function who(personId: string | null, names: Map<string, string>): { personId: string; name: string } | null {
  return personId === null ? null : { personId, name: names.get(personId) ?? "(removed)" };
}
