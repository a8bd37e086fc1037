"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { MAX_SEARCH_QUERY_CHARS, SEARCH_KINDS, type TSearchKind } from "@/lib/contracts";
import { formatTurn } from "@/lib/format";
import { runSearchQuery } from "@/lib/queries/runs";
import { searchMarks, searchSummary, stepMatch } from "@/lib/run-view/search-marks";
import { turnFraction } from "@/lib/run-view/turn-window";
import { useDebounced } from "@/components/ui/use-debounced";
import type { AxisProps } from "./meter-panels";
import { MarkTrack } from "./mark-track";
import { PLOT_INSETS } from "./plot-insets";
import laneStyles from "./lanes.module.css";
import styles from "./run-search.module.css";

/** How often a search of a run without its index yet is asked again. */
const NOT_INDEXED_POLL_MS = 5_000;

/** How long typing pauses before the search is asked. */
export const SEARCH_DEBOUNCE_MS = 300;

const KIND_OPTIONS: Record<TSearchKind, string> = {
  text: "Reminder text",
  finding: "Finding code",
  action: "Action kind",
  block: "Block id",
};

export interface RunSearchProps {
  runId: string;
  axis: Pick<AxisProps, "domain" | "selectedTurn" | "onSelectTurn">;
  /** Goes to a turn found by a step (selects it, and moves a zoomed window to it, as the triage bar does). */
  onGo: (turn: number) => void;
  /** How often to ask again while the run is live or its rebuild is behind (false: never). */
  poll?: number | false;
}

/**
 * Search inside the run (docs/search.md): a search box and a kind, asked once typing pauses, with
 * the matching turns as marks on a lane of the charts' turn axis (one MarkTrack: Tab reaches it once,
 * arrows move along the marks, Enter selects the mark's turn, as a click does), how many turns match,
 * and previous / next buttons that step from the selected turn through the listed matches. Enter in
 * the box searches at once, then goes to the next match; Shift+Enter to the previous.
 */
export function RunSearch({ runId, axis, onGo, poll = false }: RunSearchProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [kind, setKind] = useState<TSearchKind | null>(null);
  const [message, setMessage] = useState("");
  const [asked, flush] = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useQuery({
    ...runSearchQuery(runId, asked, kind),
    enabled: asked !== "",
    placeholderData: keepPreviousData,
    // Asked again while the run's index is being built (the sweep rebuilds it), and while the run is live.
    refetchInterval: (query) => (query.state.data && !query.state.data.indexed ? NOT_INDEXED_POLL_MS : poll),
  });
  const answer = asked !== "" ? search.data : undefined;
  const { domain, selectedTurn, onSelectTurn } = axis;
  const marks = answer ? searchMarks(answer.matches, answer.terms, domain) : [];

  // Where the last step went until the selected turn follows (quick presses chain, each from the last).
  const target = useRef<number | null>(null);
  useEffect(() => {
    target.current = null;
  }, [selectedTurn]);

  const step = (direction: "previous" | "next") => {
    if (!answer) return;
    const from = target.current ?? selectedTurn;
    const turn = stepMatch(answer.matches, from, direction);
    if (turn === null) {
      const why = answer.truncated && direction === "next" ? " among the first listed; narrow the search to see the later ones" : "";
      setMessage(`No ${direction === "next" ? "later" : "earlier"} match${from === null ? "" : ` than ${formatTurn(from)}`}${why}.`);
      return;
    }
    target.current = turn;
    setMessage(`${formatTurn(turn)}: ${direction} match.`);
    onGo(turn);
  };

  const status = (() => {
    if (asked === "") return "Find turns by reminder text, finding code, action kind or block id.";
    if (search.isError) return `The search failed: ${search.error.message}`;
    if (!answer || search.isPlaceholderData) return "Searching…";
    return searchSummary(answer);
  })();
  const canStep = Boolean(answer && answer.matches.length > 0 && !search.isPlaceholderData);

  return (
    <section className={styles.card} aria-label="Search this run" data-testid="run-search">
      <form
        role="search"
        aria-label="Find turns of this run"
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <label className={styles.field} htmlFor={`${id}-q`}>
          <span className="sr-only">Search this run</span>
          <span className={styles.icon} aria-hidden="true">
            ⌕
          </span>
        </label>
        <input
          id={`${id}-q`}
          type="search"
          className={styles.input}
          placeholder="Search this run…"
          value={text}
          maxLength={MAX_SEARCH_QUERY_CHARS}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-status`}
          onChange={(event) => {
            setText(event.target.value);
            setMessage("");
          }}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            if (asked !== text.trim()) flush();
            else step(event.shiftKey ? "previous" : "next");
          }}
        />
        <label className={styles.kindField}>
          <span className={styles.kindLabel}>Kind</span>
          <select
            className={styles.select}
            value={kind ?? ""}
            onChange={(event) => {
              setKind(event.target.value === "" ? null : (event.target.value as TSearchKind));
              setMessage("");
            }}
          >
            <option value="">All kinds</option>
            {SEARCH_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_OPTIONS[k]}
              </option>
            ))}
          </select>
        </label>
        <span className={styles.steps}>
          <button type="button" className={styles.step} disabled={!canStep} onClick={() => step("previous")}>
            <span aria-hidden="true">‹ </span>Previous match
          </button>
          <button type="button" className={styles.step} disabled={!canStep} onClick={() => step("next")}>
            Next match<span aria-hidden="true"> ›</span>
          </button>
        </span>
        <p id={`${id}-status`} className={styles.status} role="status" aria-live="polite" data-testid="run-search-status">
          {message ? `${status} · ${message}` : status}
        </p>
      </form>
      {answer && answer.matches.length > 0 ? (
        <div className={styles.lane} style={{ paddingLeft: PLOT_INSETS.left, paddingRight: PLOT_INSETS.right }}>
          <span className={styles.laneLabel} style={{ width: PLOT_INSETS.left }} aria-hidden="true">
            Matches
          </span>
          <MarkTrack
            className={laneStyles.track}
            label="Search matches"
            items={marks.map((mark) => ({
              key: `${mark.turn}-${mark.toTurn}`,
              turn: mark.turn,
              title: mark.title,
              activate: () => onSelectTurn(mark.turn),
            }))}
            selectedTurn={selectedTurn}
          >
            {(activeKey) => (
              <>
                {selectedTurn !== null && selectedTurn >= domain.from && selectedTurn <= domain.to ? (
                  <span
                    className={laneStyles.selected}
                    style={{ left: `${turnFraction(selectedTurn, domain) * 100}%` }}
                    aria-hidden="true"
                  />
                ) : null}
                {marks.map((mark) => (
                  <span
                    key={`${mark.turn}-${mark.toTurn}`}
                    className={styles.mark}
                    style={{ left: `${mark.x * 100}%` }}
                    title={mark.title}
                    data-mark={`${mark.turn}-${mark.toTurn}`}
                    data-turn={mark.turn}
                    data-folded={mark.count > 1 || undefined}
                    data-selected={(selectedTurn !== null && selectedTurn >= mark.turn && selectedTurn <= mark.toTurn) || undefined}
                    data-active={`${mark.turn}-${mark.toTurn}` === activeKey || undefined}
                  />
                ))}
                {marks.length === 0 ? <span className={styles.none}>no match in this window</span> : null}
              </>
            )}
          </MarkTrack>
        </div>
      ) : null}
    </section>
  );
}
