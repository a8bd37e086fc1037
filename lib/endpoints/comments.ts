import {
  MAX_COMMENT_CHARS,
  MAX_COMMENT_PAGE_CHARS,
  MAX_COMMENT_REQUEST_BYTES,
  ZComment,
  ZCommentCreate,
  ZCommentDeleted,
  ZCommentEdit,
  ZCommentList,
  ZCommentListQuery,
  ZCommentPathParams,
  ZCommentedTurns,
  ZRunPathParams,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

const BASE = "/api/v1/runs/{runId}/comments";
const NOT_YOURS = "The comment was written with another key: only its author may change it (also: a cross-origin browser request).";
const COMMENT_ID = { commentId: "The comment's id, as the API gave it." };

/** A comment body's limits, in words. */
function bodyOf(what: string) {
  return {
    maxBytes: MAX_COMMENT_REQUEST_BYTES,
    description: `${what} The body is Markdown of 1–${MAX_COMMENT_CHARS.toLocaleString("en-US")} characters (CommonMark), rendered once as it is saved into the comment's \`html\`: sanitized, no raw HTML or images, links http(s) or relative only.`,
  };
}

/** Notes on a run or one of its turns (docs/comments.md). */
export const commentsApi = {
  list: endpoint({
    id: "listComments",
    method: "GET",
    path: BASE,
    tag: "Comments",
    summary: "A run's comments",
    description: `One page of the run's comments, oldest first: all of them, only those on the whole run (\`turn=run\`), or one turn's (\`turn=N\`). A page ends before \`limit\` when its bodies and HTML pass ${MAX_COMMENT_PAGE_CHARS.toLocaleString("en-US")} characters (\`nextCursor\` goes on).`,
    auth: "key",
    pathParams: ZRunPathParams,
    query: ZCommentListQuery,
    paramDescriptions: { turn: "`run` for the comments on the whole run, a turn number for that turn's; leave out for all." },
    responses: [{ status: 200, description: "A page of comments.", schema: ZCommentList }],
  }),
  create: endpoint({
    id: "createComment",
    method: "POST",
    path: BASE,
    tag: "Comments",
    summary: "Comment on a run or a turn",
    description: "Writes a comment as the caller's key (a browser session writes as the key it was opened with).",
    auth: "key",
    pathParams: ZRunPathParams,
    body: { schema: ZCommentCreate, ...bodyOf("The comment, and the turn it is about (null or left out: the whole run).") },
    responses: [{ status: 201, description: "The comment.", schema: ZComment }],
  }),
  turns: endpoint({
    id: "listCommentedTurns",
    method: "GET",
    path: `${BASE}/turns`,
    tag: "Comments",
    summary: "Turns with comments",
    description: "The run's turns that have comments, with how many each, in turn order (the run page's notes lane).",
    auth: "key",
    pathParams: ZRunPathParams,
    responses: [{ status: 200, description: "The turns.", schema: ZCommentedTurns }],
  }),
  edit: endpoint({
    id: "editComment",
    method: "PATCH",
    path: `${BASE}/{commentId}`,
    tag: "Comments",
    summary: "Edit your comment",
    description: "Replaces the text of a comment the caller wrote; it is marked edited.",
    auth: "key",
    pathParams: ZCommentPathParams,
    paramDescriptions: COMMENT_ID,
    body: { schema: ZCommentEdit, ...bodyOf("The new text.") },
    responses: [{ status: 200, description: "The edited comment.", schema: ZComment }],
    errors: { 403: NOT_YOURS },
  }),
  delete: endpoint({
    id: "deleteComment",
    method: "DELETE",
    path: `${BASE}/{commentId}`,
    tag: "Comments",
    summary: "Delete your comment",
    description: "Deletes a comment the caller wrote.",
    auth: "key",
    pathParams: ZCommentPathParams,
    paramDescriptions: COMMENT_ID,
    responses: [{ status: 200, description: "It is gone.", schema: ZCommentDeleted }],
    errors: { 403: NOT_YOURS },
  }),
};
