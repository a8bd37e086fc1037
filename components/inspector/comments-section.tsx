"use client";

import { CommentThread } from "@/components/comments/comment-thread";
import { formatTurn } from "@/lib/format";
import { InspectorSection } from "./inspector-section";

/** The selected turn's comments in the inspector: read them and add one. */
export function CommentsSection({ runId, turn }: { runId: string; turn: number }) {
  return (
    <InspectorSection id={`turn-comments-${turn}`} title={`Comments on turn ${turn}`}>
      <CommentThread
        key={turn}
        runId={runId}
        scope={turn}
        addLabel={`Comment on ${formatTurn(turn)}`}
        emptyText={`No comments on ${formatTurn(turn)} yet.`}
      />
    </InspectorSection>
  );
}
