"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ReminderStrip } from "@/components/run/reminder-strip";
import { FINDING_CODES, type TRunComparison, type TRunSummary, type TRunTimeline } from "@/lib/contracts";
import { compareUrl, type CompareSides } from "@/lib/compare-view/compare-url";
import { overlays, xOf, type Alignment, type Overlay, type OverlayRow } from "@/lib/compare-view/overlay";
import { DIFFERENCE_WORDS, pairRows } from "@/lib/compare-view/turn-pair";
import { formatCount, formatNumber, formatTurn } from "@/lib/format";
import { JUMP_KEYS, jumpForKey } from "@/lib/keys/list-jump";
import { keyPressOf } from "@/lib/keys/key-press";
import { comparisonQuery } from "@/lib/queries/compare";
import { runPath } from "@/lib/queries/paths";
import { runSummaryQuery, runTimelineQuery } from "@/lib/queries/runs";
import { stageRowCount } from "@/lib/run-view/strip-layout";
import { OverlayChart } from "./overlay-chart";
import styles from "./compare.module.css";

/** What the view shows of side B: another run, or run A's what-if (docs/compare.md). */
export interface SideB {
  /** B's card beside run A's. */
  card: ReactNode;
  timeline: TRunTimeline | undefined;
  findingsByCode: TRunSummary["findingsByCode"] | undefined;
  /** Said under the findings table (the what-if's findings leave some codes out). */
  findingsNote?: string;
  /** Where a turn of B opens, and the link's words. */
  turnLink: (turn: number) => { href: string; label: string };
}

/**
 * Run A beside B — another run of the project, or A's own what-if under a replay job — (docs/compare.md):
 * each meter overlaid in its own unit with both policies' stage lines, the reminders each gave, their
 * findings, and their decisions at a turn; `]` `[` step through the turns where their decisions differ
 * (from the server, which answers both kinds of B in the same shape).
 */
export function ComparisonView({
  sides,
  title,
  lead,
  swap,
  b,
  initialTurn,
  initialAlignment,
}: {
  sides: CompareSides;
  title: string;
  lead: ReactNode;
  /** Offer "Swap A and B" (two runs only: a what-if is always B, the run it is a what-if of A). */
  swap: boolean;
  b: SideB;
  initialTurn: number | null;
  initialAlignment: Alignment;
}) {
  const a = sides.a;
  const [alignment, setAlignment] = useState<Alignment>(initialAlignment);
  const queryClient = useQueryClient();
  const [turn, setTurn] = useState<number | null>(initialTurn);
  const [message, setMessage] = useState("");
  const summaryA = useQuery(runSummaryQuery(a));
  const timelineA = useQuery(runTimelineQuery(a));
  // While another turn's view loads, the last one stays (its own turn named), not a "Comparing…" flash.
  const comparison = useQuery({
    ...comparisonQuery(sides, turn === null ? {} : { turn, direction: "at" }),
    placeholderData: keepPreviousData,
  });
  const view = comparison.data;
  const timelineB = b.timeline;

  // The turn and the alignment live in the URL, replaced in place (no server round trip: Next's
  // router picks native history.replaceState up), so the URL is always the view's to share.
  const go = (next: { turn?: number | null; alignment?: Alignment }) => {
    const target = { ...sides, turn: next.turn === undefined ? turn : next.turn, alignment: next.alignment ?? alignment };
    if (next.turn !== undefined) setTurn(next.turn);
    if (next.alignment !== undefined) setAlignment(next.alignment);
    window.history.replaceState(null, "", compareUrl(target));
  };

  const stepping = useRef(false);
  const step = async (direction: "next" | "previous") => {
    if (stepping.current) return;
    stepping.current = true;
    try {
      const answer = await queryClient.fetchQuery(comparisonQuery(sides, { ...(turn === null ? {} : { turn }), direction }));
      // The step's answer is the view at the turn it found: the page's own query of that turn need not ask again.
      if (answer.turn !== null) queryClient.setQueryData(comparisonQuery(sides, { turn: answer.turn, direction: "at" }).queryKey, answer);
      if (answer.turn === null)
        setMessage(
          direction === "next"
            ? "No later turn where the runs decided differently."
            : "No earlier turn where the runs decided differently.",
        );
      else {
        go({ turn: answer.turn });
        setMessage(
          `Turn ${formatNumber(answer.turn)}: ${answer.decisions ? DIFFERENCE_WORDS[answer.decisions.difference] : "different decisions"}.`,
        );
      }
    } finally {
      stepping.current = false;
    }
  };
  const stepRef = useRef(step);
  useEffect(() => {
    stepRef.current = step;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const direction = jumpForKey(keyPressOf(event));
      if (!direction) return;
      event.preventDefault();
      void stepRef.current(direction);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const charts = useMemo(
    () => (timelineA.data && timelineB ? overlays(timelineA.data, timelineB, alignment) : []),
    [timelineA.data, timelineB, alignment],
  );
  const lastA = timelineA.data?.runTurnRange?.[1] ?? null;
  const lastB = timelineB?.runTurnRange?.[1] ?? null;
  const selected = turn === null ? null : { a: xOf(turn, alignment, lastA), b: xOf(turn, alignment, lastB) };
  const onSelect = (row: OverlayRow) => {
    const picked = alignment === "turn" ? row.x : (row.turnA ?? row.turnB);
    if (picked !== undefined) go({ turn: picked });
  };
  const domain = { from: 0, to: Math.max(lastA ?? 0, lastB ?? 0, 1) };

  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <h1>{title}</h1>
        <p className={styles.lead}>{lead}</p>
        <div className={styles.controls}>
          {swap && sides.b !== undefined ? (
            <Link href={compareUrl({ a: sides.b, b: a, turn, alignment })} className="button button-quiet">
              Swap A and B
            </Link>
          ) : null}
          <fieldset className={styles.align}>
            <legend>Align</legend>
            {(["turn", "share"] as const).map((value) => (
              <label key={value}>
                <input type="radio" name="align" value={value} checked={alignment === value} onChange={() => go({ alignment: value })} />{" "}
                {value === "turn" ? "by turn" : "by share of the run"}
              </label>
            ))}
          </fieldset>
        </div>
      </header>

      <div className={styles.runs}>
        <RunCard which="A" summary={summaryA.data} runId={a} />
        {b.card}
      </div>

      <section className={styles.differences} aria-labelledby="differences-title">
        <h2 id="differences-title">Differences</h2>
        {comparison.isError && !view ? (
          <p className="form-error" role="alert">
            {comparison.error.message}
          </p>
        ) : !view ? (
          <p className={styles.muted}>Comparing…</p>
        ) : !view.ready ? (
          <p className={styles.muted}>One of the runs is being rebuilt; its differences show once it is.</p>
        ) : (
          <>
            <p data-testid="first-difference">
              {view.first === null ? (
                view.commonTurns ? (
                  `The runs decided the same on every turn both have (turns 0–${formatNumber(view.commonTurns[1])}).`
                ) : (
                  "One of the runs has no rebuilt turns yet."
                )
              ) : (
                <>
                  First differing decision:{" "}
                  <button type="button" className="link-button" onClick={() => go({ turn: view.first })}>
                    {formatTurn(view.first)}
                  </button>
                  {view.lastTurns.a !== view.lastTurns.b && view.commonTurns ? (
                    <span className={styles.muted}>
                      {" "}
                      · compared over turns 0–{formatNumber(view.commonTurns[1])}; run {view.lastTurns.a! < view.lastTurns.b! ? "A" : "B"}{" "}
                      ends there
                    </span>
                  ) : null}
                </>
              )}
            </p>
            <div className={styles.stepper}>
              <button
                type="button"
                className="button button-quiet"
                onClick={() => void step("previous")}
                aria-keyshortcuts={JUMP_KEYS.previous}
              >
                ← Previous difference <kbd>{JUMP_KEYS.previous}</kbd>
              </button>
              <button type="button" className="button button-quiet" onClick={() => void step("next")} aria-keyshortcuts={JUMP_KEYS.next}>
                Next difference <kbd>{JUMP_KEYS.next}</kbd> →
              </button>
            </div>
            <p role="status" className={styles.status}>
              {message}
            </p>
            {turn !== null && view.decisions ? (
              <TurnPair turn={turn} a={a} b={b} decisions={view.decisions} />
            ) : turn !== null ? (
              <p className={styles.muted}>Neither run rebuilt {formatTurn(turn)}.</p>
            ) : null}
          </>
        )}
      </section>

      <section className={styles.meters} aria-label="Meters of both runs">
        {charts.map((overlay) => (
          <OverlayChart
            key={`${overlay.meter}:${overlay.blockId ?? ""}`}
            overlay={overlay}
            alignment={alignment}
            selected={selected}
            onSelect={onSelect}
            xDomain={alignment === "turn" ? [domain.from, domain.to] : [0, 100]}
          >
            {alignment === "turn" && timelineA.data && timelineB
              ? (["a", "b"] as const).map((which) => {
                  const timeline = which === "a" ? timelineA.data : timelineB;
                  const strip = stripOf(timeline, overlay);
                  return strip ? (
                    <ReminderStrip
                      key={which}
                      label={`${which.toUpperCase()} ${overlay.meter}`}
                      items={strip.items}
                      stageRows={strip.stageRows}
                      domain={domain}
                      selectedTurn={turn}
                      onSelectTurn={(t) => go({ turn: t })}
                    />
                  ) : null;
                })
              : null}
          </OverlayChart>
        ))}
      </section>

      <FindingsTable a={summaryA.data?.findingsByCode} b={b.findingsByCode} note={b.findingsNote} />
    </div>
  );
}

/** A run's reminders of the overlay's meter (an edits overlay: its block's) and the strip's stage rows; null when the run has no such meter. */
function stripOf(timeline: TRunTimeline, overlay: Overlay) {
  if (overlay.meter === "edits") {
    const block = timeline.edits?.blocks.find((b) => b.blockId === overlay.blockId);
    if (!block || !timeline.edits) return null;
    return {
      items: timeline.reminders.edits.filter((r) => r.subject === overlay.blockId),
      stageRows: stageRowCount(timeline.edits.stageRatios),
    };
  }
  const chart = timeline[overlay.meter];
  return chart ? { items: timeline.reminders[overlay.meter], stageRows: stageRowCount(chart.thresholds) } : null;
}

/** A run's card: task, agent, model, status and counts from its summary, linking to its page. */
export function RunCard({ which, summary, runId }: { which: "A" | "B"; summary: TRunSummary | undefined; runId: string }) {
  return (
    <section className={styles.card} aria-label={`Run ${which}`} data-run={which}>
      <p className={styles.cardTag}>
        <span className={styles.swatch} data-run={which} aria-hidden="true" /> Run {which}
      </p>
      <h2 className={styles.cardTitle}>
        <Link href={runPath(runId)}>{summary?.task ?? runId}</Link>
      </h2>
      <p className={styles.muted}>
        {runId}
        {summary ? ` · ${summary.agent ?? "no agent"} · ${summary.model ?? "no model"} · ${summary.status}` : ""}
      </p>
      {summary ? <RunCounts turns={summary.turns} reminders={summary.reminders} findings={summary.findings} /> : null}
    </section>
  );
}

/** A side's turns, reminders delivered and dropped, and findings. */
export function RunCounts({ turns, reminders, findings }: { turns: number; reminders: TRunSummary["reminders"]; findings: number }) {
  return (
    <p>
      {formatCount(turns, "turn")} · {formatCount(reminders.delivered, "reminder")} delivered, {formatNumber(reminders.dropped)} dropped ·{" "}
      {formatCount(findings, "finding")}
    </p>
  );
}

function TurnPair({ turn, a, b, decisions }: { turn: number; a: string; b: SideB; decisions: NonNullable<TRunComparison["decisions"]> }) {
  const rows = pairRows(decisions.a, decisions.b);
  const open = b.turnLink(turn);
  return (
    <div className={styles.pair}>
      <p>
        <strong>{formatTurn(turn)}</strong>: {DIFFERENCE_WORDS[decisions.difference]} ·{" "}
        <Link href={runPath(a, { turn })}>open in run A</Link> · <Link href={open.href}>{open.label}</Link>
      </p>
      {rows.length ? (
        <table className="data-table">
          <caption className="sr-only">Decisions of both runs at {formatTurn(turn)}</caption>
          <thead>
            <tr>
              <th scope="col">Reminder</th>
              <th scope="col">Run A</th>
              <th scope="col">Run B</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label} data-differs={row.differs}>
                <th scope="row">{row.label}</th>
                <td>{row.a}</td>
                <td>
                  {row.b}
                  {row.differs ? <span className={styles.differs}> · differs</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className={styles.muted}>Neither run gave a reminder on this turn.</p>
      )}
    </div>
  );
}

type FindingCounts = TRunSummary["findingsByCode"];

function FindingsTable({ a, b, note }: { a: FindingCounts | undefined; b: FindingCounts | undefined; note?: string }) {
  if (!a || !b) return null;
  const codes = FINDING_CODES.filter((code) => (a[code] ?? 0) + (b[code] ?? 0) > 0);
  return (
    <section className={styles.findings} aria-labelledby="compare-findings">
      <h2 id="compare-findings">Findings</h2>
      {codes.length ? (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Run A (findings)</th>
              <th scope="col">Run B (findings)</th>
            </tr>
          </thead>
          <tbody>
            {codes.map((code) => (
              <tr key={code}>
                <th scope="row">
                  <code>{code}</code>
                </th>
                <td className="num">{formatNumber(a[code] ?? 0)}</td>
                <td className="num">{formatNumber(b[code] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className={styles.muted}>Neither run has a finding.</p>
      )}
      {note ? (
        <p className={styles.muted} data-testid="findings-note">
          {note}
        </p>
      ) : null}
    </section>
  );
}
