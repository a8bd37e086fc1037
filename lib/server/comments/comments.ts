import {
  MAX_COMMENT_PAGE_CHARS,
  MAX_COMMENTED_TURNS,
  type TComment,
  type TCommentList,
  type TCommentListQuery,
  type TCommentedTurns,
} from "@/lib/contracts";
import { renderMarkdown } from "@/lib/markdown/markdown";
import { actorOf, recordAudit } from "@/lib/server/audit/audit-log";
import { viewerOf, type Caller, type Viewer } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";
import { findRun } from "@/lib/server/runs/find-run";

/**
 * Comments on a run or on one of its turns (docs/comments.md). Every read and write is of the
 * caller's project: a run of another project is not found, and so are its comments. The author is
 * the caller's API key (a browser session acts as the key it was opened with); only the author
 * edits or deletes a comment. A run's `comment_count` changes in the same transaction as the
 * comment row, so the runs list shows it from the run's own row. The body is rendered to sanitized
 * HTML once, when it is written (and back-filled for older rows, lib/server/db/backfills.ts), so a
 * read serves the stored HTML and parses no Markdown.
 */

type CommentRow = Prisma.CommentGetPayload<object>;

/** The name a comment shows for its author: a person's name, else the key's label or its prefix (as saved versions do). */
export function authorName(caller: Caller): string {
  if (caller.person) return caller.person.name;
  return caller.key?.label?.trim() || `key ${caller.key?.prefix}…`;
}

/** Who reads: the project, and the key or person whose comments are `mine` (neither: no comment is). */
export interface CommentViewer extends Viewer {
  projectId: string;
}

/** Whether the viewer wrote the row: the same person, or (for a comment written with a key) the same key. */
function isAuthor(row: CommentRow, viewer: Viewer): boolean {
  if (row.authorPersonId !== null) return viewer.personId !== undefined && row.authorPersonId === viewer.personId;
  return viewer.keyId !== undefined && row.authorKeyId === viewer.keyId;
}

function toComment(row: CommentRow, runId: string, viewer: Viewer, prefixes: Map<string, string>): TComment {
  return {
    id: row.id,
    runId,
    turn: row.turn,
    body: row.body,
    // A row an older server wrote after the back-fill ran has none yet: rendered here (linear, a page at most).
    html: row.bodyHtml ?? renderMarkdown(row.body),
    author: { name: row.authorName, keyPrefix: row.authorKeyId === null ? null : (prefixes.get(row.authorKeyId) ?? null) },
    mine: isAuthor(row, viewer),
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
  };
}

/** The prefixes of the authors' keys (one query for a page of comments). */
async function keyPrefixes(db: Database, projectId: string, rows: CommentRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((row) => row.authorKeyId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const keys = await db.prisma.apiKey.findMany({ where: { projectId, id: { in: ids } }, select: { id: true, prefix: true } });
  return new Map(keys.map((key) => [key.id, key.prefix]));
}

export async function createComment(
  db: Database,
  caller: Caller,
  runId: string,
  input: { body: string; turn: number | null },
): Promise<TComment> {
  const run = await findRun(db, caller.projectId, runId);
  if (input.turn !== null && (run.maxTurn === null || input.turn > run.maxTurn)) {
    throw new DomainError(
      "invalid",
      `body.turn: the run has no turn ${input.turn} (${run.maxTurn === null ? "it has no turns yet" : `its last turn is ${run.maxTurn}`})`,
      "turn",
    );
  }
  const row = await db.prisma.$transaction(async (tx) => {
    const created = await tx.comment.create({
      data: {
        projectId: caller.projectId,
        runPk: run.id,
        turn: input.turn,
        authorKeyId: caller.key?.id ?? null,
        authorPersonId: caller.person?.id ?? null,
        authorName: authorName(caller),
        body: input.body,
        bodyHtml: renderMarkdown(input.body),
      },
    });
    await tx.run.update({
      where: { projectId_id: { projectId: caller.projectId, id: run.id } },
      data: { commentCount: { increment: 1 } },
    });
    return created;
  });
  return toComment(row, run.runId, viewerOf(caller), ownPrefix(caller));
}

/** The comment of this run in the caller's project, or not found (another project's, another run's, deleted). */
async function findComment(db: Database, caller: Caller, runId: string, commentId: string) {
  const run = await findRun(db, caller.projectId, runId);
  const row = await db.prisma.comment.findUnique({ where: { projectId_id: { projectId: caller.projectId, id: commentId } } });
  if (!row || row.runPk !== run.id) {
    throw new DomainError(
      "not_found",
      `no comment ${JSON.stringify(commentId)} on run ${JSON.stringify(runId)} in this project`,
      "commentId",
    );
  }
  return { run, row };
}

/** The caller's key prefix, for the comment it just wrote. */
function ownPrefix(caller: Caller): Map<string, string> {
  return caller.key ? new Map([[caller.key.id, caller.key.prefix]]) : new Map();
}

function assertOwn(row: CommentRow, caller: Caller, what: "edit" | "delete"): void {
  if (!isAuthor(row, viewerOf(caller))) {
    throw new DomainError("forbidden", `only its author may ${what} a comment: this one was written by ${row.authorName}`, "commentId");
  }
}

export async function editComment(db: Database, caller: Caller, runId: string, commentId: string, body: string): Promise<TComment> {
  const { run, row } = await findComment(db, caller, runId, commentId);
  assertOwn(row, caller, "edit");
  const updated = await db.prisma.comment.update({
    where: { projectId_id: { projectId: caller.projectId, id: row.id } },
    data: { body, bodyHtml: renderMarkdown(body), editedAt: new Date() },
  });
  return toComment(updated, run.runId, viewerOf(caller), ownPrefix(caller));
}

export async function deleteComment(
  db: Database,
  caller: Caller,
  runId: string,
  commentId: string,
): Promise<{ id: string; deleted: true }> {
  const { run, row } = await findComment(db, caller, runId, commentId);
  assertOwn(row, caller, "delete");
  await db.prisma.$transaction(async (tx) => {
    // Counted only when this request deleted the row (two deletes at once count once).
    const { count } = await tx.comment.deleteMany({ where: { projectId: caller.projectId, id: row.id } });
    if (count > 0) {
      await tx.run.update({
        where: { projectId_id: { projectId: caller.projectId, id: run.id } },
        data: { commentCount: { decrement: count } },
      });
      await recordAudit(tx, caller.projectId, actorOf(caller), {
        action: "comment.delete",
        target: { id: row.id },
        before: { runId: run.runId, turn: row.turn, author: row.authorName, body: row.body, createdAt: row.createdAt.toISOString() },
      });
    }
  });
  return { id: row.id, deleted: true };
}

interface Cursor {
  t: string;
  id: string;
}

/** A page of a run's comments, oldest first: all of them, the run-level ones (`turn: "run"`) or one turn's. */
export async function listComments(db: Database, viewer: CommentViewer, runId: string, query: TCommentListQuery): Promise<TCommentList> {
  const run = await findRun(db, viewer.projectId, runId);
  const where: Prisma.CommentWhereInput = { projectId: viewer.projectId, runPk: run.id };
  if (query.turn === "run") where.turn = null;
  else if (query.turn !== undefined) where.turn = query.turn;
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor);
    const at = new Date(cursor.t);
    where.OR = [{ createdAt: { gt: at } }, { createdAt: at, id: { gt: cursor.id } }];
  }
  const rows = await db.prisma.comment.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: query.limit + 1 });
  const page = pageWithin(rows.slice(0, query.limit), MAX_COMMENT_PAGE_CHARS);
  const last = page.at(-1);
  const nextCursor = rows.length > page.length && last ? encodeCursor({ t: last.createdAt.toISOString(), id: last.id }) : null;
  const prefixes = await keyPrefixes(db, viewer.projectId, page);
  return { comments: page.map((row) => toComment(row, run.runId, viewer, prefixes)), nextCursor };
}

/** The first rows whose bodies and HTML stay within `budget` characters (at least one row). */
function pageWithin(rows: CommentRow[], budget: number): CommentRow[] {
  let used = 0;
  for (let i = 0; i < rows.length; i++) {
    used += rows[i].body.length + (rows[i].bodyHtml?.length ?? rows[i].body.length * 11);
    if (used > budget && i > 0) return rows.slice(0, i);
  }
  return rows;
}

/** The run's turns with comments and how many each (the notes lane), in turn order. */
export async function commentedTurns(db: Database, projectId: string, runId: string): Promise<TCommentedTurns> {
  const run = await findRun(db, projectId, runId);
  const rows = await db.prisma.$queryRawUnsafe<{ turn: number; count: number }[]>(
    `SELECT "turn", count(*)::int AS "count" FROM "comments"
      WHERE "project_id" = $1 AND "run_pk" = $2 AND "turn" IS NOT NULL
      GROUP BY "turn" ORDER BY "turn" LIMIT $3`,
    projectId,
    run.id,
    MAX_COMMENTED_TURNS + 1,
  );
  return {
    turns: rows.slice(0, MAX_COMMENTED_TURNS).map((r) => ({ turn: r.turn, count: r.count })),
    truncated: rows.length > MAX_COMMENTED_TURNS,
  };
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  let cursor: Partial<Cursor> | null = null;
  try {
    cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<Cursor> | null;
  } catch {
    // not JSON: below
  }
  const ok =
    cursor &&
    typeof cursor === "object" &&
    typeof cursor.id === "string" &&
    cursor.id.length > 0 &&
    cursor.id.length <= 128 &&
    !cursor.id.includes("\u0000") &&
    typeof cursor.t === "string" &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(cursor.t) &&
    !Number.isNaN(Date.parse(cursor.t));
  if (ok) return cursor as Cursor;
  throw new DomainError("invalid", "query.cursor: not a cursor this API gave out: use the nextCursor of the previous page", "cursor");
}
