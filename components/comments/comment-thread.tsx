"use client";

import { useMutation, useQueries, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TComment } from "@/lib/contracts";
import { formatInstant } from "@/lib/format";
import { commentKeys, commentsQuery, createComment, deleteComment, editComment, type CommentScope } from "@/lib/queries/comments";
import { runKeys } from "@/lib/queries/runs";
import { RenderedMarkdown } from "@/components/ui/markdown";
import { CommentComposer } from "./comment-composer";
import styles from "./comments.module.css";

type ThreadProps = {
  runId: string;
  scope: CommentScope;
  /** The composer's label ("Add a note to the run", "Add a comment on this turn"). */
  addLabel: string;
  /** What the list says when empty. */
  emptyText: string;
};

/** After a write: the thread, the notes lane and the runs list's counts are read again. */
function useRefreshAfterWrite(runId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: commentKeys.all(runId) }),
      queryClient.invalidateQueries({ queryKey: runKeys.list({}).slice(0, 2) }),
    ]);
}

/**
 * Comments of a run (`scope: "run"`) or of one of its turns, oldest first, with a composer; the
 * caller's own comments can be edited and deleted (the server checks that too).
 */
export function CommentThread({ runId, scope, addLabel, emptyText }: ThreadProps) {
  // The first page (prefetched by the run page), then one page per "Show more" (keyset cursors).
  const [cursors, setCursors] = useState<string[]>([]);
  const pages = useQueries({ queries: [null, ...cursors].map((cursor) => commentsQuery(runId, scope, cursor)) });
  const first = pages[0];
  const last = pages[pages.length - 1];
  const nextCursor = last.data?.nextCursor ?? null;
  const refresh = useRefreshAfterWrite(runId);
  const create = useMutation({
    mutationFn: (body: string) => createComment(runId, { body, turn: scope === "run" ? null : scope }),
    onSuccess: refresh,
  });
  const comments = pages.flatMap((page) => page.data?.comments ?? []);

  return (
    <div className={styles.thread}>
      {first.isError ? (
        <p className={styles.error}>
          Could not load the comments: {first.error.message}{" "}
          <button type="button" className={styles.linkButton} onClick={() => void first.refetch()}>
            Retry
          </button>
        </p>
      ) : first.isPending ? (
        <p className={styles.empty}>Loading comments…</p>
      ) : comments.length === 0 ? (
        <p className={styles.empty}>{emptyText}</p>
      ) : (
        <ol className={styles.list} aria-label="Comments">
          {comments.map((comment) => (
            <CommentItem key={comment.id} runId={runId} comment={comment} onChanged={refresh} />
          ))}
        </ol>
      )}
      {last.isPending && cursors.length > 0 ? (
        <p className={styles.empty}>Loading more comments…</p>
      ) : nextCursor ? (
        <button type="button" className="button button-quiet" onClick={() => setCursors((previous) => [...previous, nextCursor])}>
          Show more comments
        </button>
      ) : null}
      <CommentComposer
        label={addLabel}
        submitLabel="Add comment"
        busy={create.isPending}
        error={create.error?.message ?? null}
        onSubmit={(body) => create.mutateAsync(body)}
      />
    </div>
  );
}

function CommentItem({ runId, comment, onChanged }: { runId: string; comment: TComment; onChanged: () => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const edit = useMutation({ mutationFn: (body: string) => editComment(runId, comment.id, body), onSuccess: onChanged });
  const remove = useMutation({ mutationFn: () => deleteComment(runId, comment.id), onSuccess: onChanged });
  const author = comment.author.name;

  return (
    <li className={styles.comment} aria-label={`Comment by ${author}`}>
      <div className={styles.meta}>
        <span className={styles.author} title={comment.author.keyPrefix ? `key ${comment.author.keyPrefix}…` : undefined}>
          {author}
        </span>
        <time dateTime={comment.createdAt}>{formatInstant(comment.createdAt)}</time>
        {comment.editedAt ? (
          <span>
            · edited <time dateTime={comment.editedAt}>{formatInstant(comment.editedAt)}</time>
          </span>
        ) : null}
        {comment.mine && !editing ? (
          <span className={styles.actions}>
            <button
              type="button"
              className={styles.linkButton}
              onClick={() => setEditing(true)}
              aria-label={`Edit your comment of ${formatInstant(comment.createdAt)}`}
            >
              Edit
            </button>
            <button
              type="button"
              className={styles.linkButton}
              onClick={() => setConfirming(true)}
              aria-label={`Delete your comment of ${formatInstant(comment.createdAt)}`}
            >
              Delete
            </button>
          </span>
        ) : null}
      </div>
      {confirming ? (
        <div className={styles.confirm} role="group" aria-label="Confirm deletion">
          <span>Delete this comment?</span>
          <button type="button" className="button" disabled={remove.isPending} onClick={() => remove.mutate()}>
            {remove.isPending ? "Deleting…" : "Yes, delete"}
          </button>
          <button type="button" className="button button-quiet" onClick={() => setConfirming(false)}>
            Keep it
          </button>
          {remove.error ? (
            <span className={styles.error} role="alert">
              {remove.error.message}
            </span>
          ) : null}
        </div>
      ) : null}
      {editing ? (
        <CommentComposer
          label="Edit your comment"
          submitLabel="Save"
          initial={comment.body}
          busy={edit.isPending}
          error={edit.error?.message ?? null}
          onCancel={() => setEditing(false)}
          onSubmit={(body) => edit.mutateAsync(body).then(() => setEditing(false))}
        />
      ) : (
        <RenderedMarkdown html={comment.html} className={styles.body} />
      )}
    </li>
  );
}
