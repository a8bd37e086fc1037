"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { TTurnDetail } from "@/lib/contracts";
import { formatCount, formatTurn } from "@/lib/format";
import { turnDetailQuery } from "@/lib/queries/runs";
import { StatusMark } from "@/components/ui/status-mark";
import { CommentsSection } from "./comments-section";
import { CopyLinkButton } from "./copy-link-button";
import { TurnBody } from "./turn-body";
import { TurnNav } from "./turn-nav";
import { useTurnKeys } from "./use-turn-keys";
import styles from "./inspector.module.css";

export interface TurnInspectorProps {
  runId: string;
  turn: number;
  /** Asks the page to select another turn (← → keys, prev/next buttons). */
  onNavigate: (turn: number) => void;
}

/** A one-line account of the turn for the header: reminders by status, the submission, findings. */
function TurnSummary({ detail }: { detail: TTurnDetail }) {
  if (!detail.exists) return <span>no events</span>;
  if (!detail.decision) return <span>skipped · INCOMPLETE_TURN</span>;
  const counts = new Map<string, number>();
  for (const r of detail.decision.reminders) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return (
    <span className={styles.summaryLine}>
      {detail.decision.reminders.length === 0 ? <span>no reminders</span> : null}
      {(["delivered", "dropped", "failed", "uncertain", "pending"] as const).map((status) =>
        counts.get(status) ? (
          <span key={status} className={styles.count}>
            {counts.get(status)} <StatusMark status={status} />
          </span>
        ) : null,
      )}
      {detail.findings.length > 0 ? <span className={styles.count}>{formatCount(detail.findings.length, "finding")}</span> : null}
    </span>
  );
}

/**
 * The turn inspector: for the selected turn, the meters, candidates and fitting, the submission,
 * what the agent recorded vs the rebuild, findings, compaction, and the Reviewer, notification and
 * model-action lanes. ← → (and the buttons) move between the turns that exist.
 */
export function TurnInspector({ runId, turn, onNavigate }: TurnInspectorProps) {
  const query = useQuery({
    ...turnDetailQuery(runId, turn),
    // While the next turn loads, keep showing the last one (dimmed) instead of a blank panel.
    placeholderData: (previous) => (previous?.runId === runId ? keepPreviousData(previous) : undefined),
  });
  const shown = query.data;
  const current = shown && !query.isPlaceholderData ? shown : undefined;
  const previousTurn = current?.previousTurn ?? null;
  const nextTurn = current?.nextTurn ?? null;

  useTurnKeys(previousTurn, nextTurn, onNavigate);

  // Warm the neighbours, so ← → feel instant.
  const queryClient = useQueryClient();
  useEffect(() => {
    for (const t of [previousTurn, nextTurn]) if (t !== null) void queryClient.prefetchQuery(turnDetailQuery(runId, t));
  }, [queryClient, runId, previousTurn, nextTurn]);

  return (
    <aside className={styles.inspector} aria-label={`Turn inspector: ${formatTurn(turn)}`} aria-busy={query.isFetching && !current}>
      <header className={styles.header}>
        <div className={styles.titleBlock}>
          <h2 className={styles.title}>{formatTurn(turn).replace(/^turn/, "Turn")}</h2>
          <div className={styles.subtitle}>
            {current ? <TurnSummary detail={current} /> : query.isError ? "could not load" : "loading…"}
          </div>
        </div>
        <TurnNav previousTurn={previousTurn} nextTurn={nextTurn} onNavigate={onNavigate} />
        <CopyLinkButton key={turn} turn={turn} />
      </header>
      <p className={styles.keyHint}>
        <kbd>←</kbd> <kbd>→</kbd> move between turns
      </p>
      {query.isError && !current ? (
        <div className={styles.banner} data-tone="error" role="alert">
          <strong>Could not load {formatTurn(turn)}.</strong> {query.error.message}{" "}
          <button type="button" className={styles.retry} onClick={() => void query.refetch()}>
            Retry
          </button>
        </div>
      ) : shown ? (
        <div className={query.isPlaceholderData ? styles.stale : undefined}>
          <TurnBody detail={shown} />
        </div>
      ) : (
        <div className={styles.loading} role="status">
          Loading {formatTurn(turn)}…
          <span className={styles.skeleton} />
          <span className={styles.skeleton} />
          <span className={styles.skeleton} />
        </div>
      )}
      <CommentsSection runId={runId} turn={turn} />
    </aside>
  );
}
