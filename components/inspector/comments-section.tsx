"use client";

import { CommentThread } from "@/components/comments/comment-thread";
import { formatTurn } from "@/lib/format";
import styles from "./inspector.module.css";

/**
 * The selected turn's comments in the inspector: read them and add one. Its heading says "Comments
 * on turn N"; its region and field are named "this turn", so that the inspector stays the one thing
 * on the page named by its turn.
 */
export function CommentsSection({ runId, turn }: { runId: string; turn: number }) {
  return (
    <section className={styles.section} aria-label="Comments on this turn">
      <header className={styles.sectionHeader}>
        <h3>Comments on turn {turn}</h3>
      </header>
      <CommentThread
        key={turn}
        runId={runId}
        scope={turn}
        addLabel="Add a comment on this turn"
        emptyText={`No comments on ${formatTurn(turn)} yet.`}
      />
    </section>
  );
}
