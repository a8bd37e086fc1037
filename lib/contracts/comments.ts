import { z } from "zod";
import { ZRunPathParams } from "./api";
import { MAX_INT4, showParam, zIntParam, ZRecordIdParam, zTextParam, ZTurnParam } from "./params";

/**
 * Comments on a run or on one of its turns (docs/comments.md): Markdown text written by whoever is
 * signed in (the API key, or the key a browser session was opened with), shown on the run page and
 * counted in the runs list.
 */

/** The longest comment body, in characters (UTF-16 code units, as the browser's textarea counts). */
export const MAX_COMMENT_CHARS = 10_000;
/** The largest request body of a comment write: the body at its limit, escaped, with room to spare. */
export const MAX_COMMENT_REQUEST_BYTES = 64 * 1024;

/**
 * The most text one page of comments carries, in characters of body and rendered HTML together: a
 * page ends early (with a `nextCursor`) rather than pass it, but always holds at least one comment.
 * A comment's HTML is at most ~11× its body (a body of empty links), so a page stays ~1 MB at most.
 */
export const MAX_COMMENT_PAGE_CHARS = 1_000_000;

/** A comment's text: 1–10,000 characters, not only white space, storable (no NUL, no lone surrogate). */
export const ZCommentBody = zTextParam({ max: MAX_COMMENT_CHARS, what: `a comment of 1-${MAX_COMMENT_CHARS} characters` })
  .check((ctx) => {
    if (ctx.value.trim() === "") ctx.issues.push({ code: "custom", input: ctx.value, message: "expected a comment, got only white space" });
  })
  .describe(
    "The comment as CommonMark (paragraphs, *emphasis*, **strong**, `code`, code blocks, lists, quotes, headings, links); raw HTML shows as text, and images are not loaded.",
  );

/** `POST /api/v1/runs/:runId/comments`: a comment on the run, or on one of its turns. */
export const ZCommentCreate = z.strictObject({
  body: ZCommentBody,
  turn: z
    .number({ error: (iss) => `expected a turn number or null, got ${showParam(iss.input)}` })
    .int({ error: (iss) => `expected a whole turn number, got ${String(iss.input)}` })
    .min(0, { error: (iss) => `expected a turn number from 0, got ${String(iss.input)}` })
    .max(MAX_INT4, { error: (iss) => `expected a turn number up to ${MAX_INT4}, got ${String(iss.input)}` })
    .nullable()
    .default(null)
    .describe("The turn the comment is about; null or left out for a comment on the whole run."),
});

/** `PATCH /api/v1/runs/:runId/comments/:commentId`: the new text. */
export const ZCommentEdit = z.strictObject({ body: ZCommentBody });

export const ZCommentPathParams = ZRunPathParams.extend({ commentId: ZRecordIdParam });

/** Which comments of the run a list holds: all of them, the run-level ones (`run`), or one turn's. */
export const ZCommentScopeParam = z.union([z.literal("run"), ZTurnParam], {
  error: (iss) => `expected \`run\` or a turn number (an integer from 0), got ${showParam(iss.input)}`,
});

export const ZCommentListQuery = z.object({
  turn: ZCommentScopeParam.optional(),
  /** The nextCursor of a previous page (opaque). */
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,400}$/, { error: (iss) => `expected the nextCursor of a previous page, got ${showParam(iss.input)}` })
    .optional(),
  limit: zIntParam(1, 200).default(50),
});

export const ZComment = z.object({
  id: z.string().describe("The comment's id."),
  runId: z.string().describe("The run it belongs to."),
  turn: z.number().int().nullable().describe("The turn it is about, or null for a comment on the whole run."),
  body: z.string().describe("The Markdown text as written."),
  html: z
    .string()
    .describe(
      "The body rendered when it was written: sanitized HTML of CommonMark without raw HTML or images, links only to http(s) or relative targets (docs/comments.md#safety).",
    ),
  author: z
    .object({
      name: z.string().describe("The author's name: the label of the API key used (else its prefix) when the comment was written."),
      keyPrefix: z.string().nullable().describe("The prefix of the author's key, when that key still exists."),
    })
    .describe("Who wrote it: the API key used, or the key the browser session was opened with."),
  mine: z.boolean().describe("Whether the caller wrote it (and so may edit or delete it)."),
  createdAt: z.string().describe("When it was written (RFC 3339)."),
  editedAt: z.string().nullable().describe("When it was last edited (RFC 3339), or null."),
});

export const ZCommentList = z.object({
  comments: z.array(ZComment).describe("Oldest first."),
  nextCursor: z
    .string()
    .nullable()
    .describe(
      `Pass as \`cursor\` for the next page; null on the last page. A page ends before \`limit\` when its comments' bodies and HTML pass ${MAX_COMMENT_PAGE_CHARS.toLocaleString("en-US")} characters.`,
    ),
});

/** `GET /api/v1/runs/:runId/comments/turns`: the turns with comments (the run page's notes lane). */
export const MAX_COMMENTED_TURNS = 5_000;
export const ZCommentedTurns = z.object({
  turns: z
    .array(z.object({ turn: z.number().int().describe("A turn with comments."), count: z.number().int().describe("How many.") }))
    .describe(`The run's turns with at least one comment, in turn order (at most ${MAX_COMMENTED_TURNS}).`),
  truncated: z.boolean().describe("Whether more turns have comments than the list holds."),
});

export const ZCommentDeleted = z.object({ id: z.string().describe("The deleted comment's id."), deleted: z.literal(true) });

export type TComment = z.infer<typeof ZComment>;
export type TCommentList = z.infer<typeof ZCommentList>;
export type TCommentCreate = z.input<typeof ZCommentCreate>;
export type TCommentListQuery = z.output<typeof ZCommentListQuery>;
export type TCommentedTurns = z.infer<typeof ZCommentedTurns>;
