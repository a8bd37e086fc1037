"use client";

import { CommentThread } from "@/components/comments/comment-thread";
import { Panel } from "@/components/ui/panel";

/** The run page's notes: comments on the whole run (turn comments are in the turn inspector and the notes lane). */
export function NotesPanel({ runId }: { runId: string }) {
  return (
    <Panel id="run-notes" title="Notes" meta="on the whole run · Markdown">
      <CommentThread runId={runId} scope="run" addLabel="Add a note to the run" emptyText="No notes on this run yet." />
    </Panel>
  );
}
