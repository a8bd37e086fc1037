"use client";

import { useState } from "react";
import type { TRunTimeline } from "@/lib/contracts";
import { formatCount, formatNumber, formatTurn, formatTurnRange } from "@/lib/format";
import { groupFindings } from "@/lib/run-view/finding-groups";
import styles from "./run.module.css";

const SHOWN_TURNS = 24;

/** All the run's findings grouped by code, each with its rule in one line and links to its turns. */
export function FindingsView({
  timeline,
  hrefForTurn,
  onSelectTurn,
  selectedTurn,
}: {
  timeline: TRunTimeline;
  hrefForTurn: (turn: number) => string;
  onSelectTurn: (turn: number) => void;
  selectedTurn: number | null;
}) {
  const groups = groupFindings(timeline.findings, timeline.runFindings);
  const total = groups.reduce((n, g) => n + g.count, 0);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  return (
    <section id="findings" className={styles.card} aria-labelledby="findings-title">
      <header className={`panel-header ${styles.cardHeader}`}>
        <h2 id="findings-title">Findings ({formatNumber(total)})</h2>
        <span className={styles.meterMeta}>
          {groups.length
            ? (["violation", "mismatch", "notice"] as const)
                .map((sev) => [sev, groups.filter((g) => g.info.severity === sev).reduce((n, g) => n + g.count, 0)] as const)
                .filter(([, n]) => n > 0)
                .map(([sev, n]) => formatCount(n, sev, sev === "mismatch" ? "mismatches" : `${sev}s`))
                .concat(formatCount(groups.length, "code"))
                .join(" · ")
            : "the rebuild agrees with what the agent recorded"}
        </span>
      </header>
      {groups.length ? (
        <ul className={styles.findingList}>
          {groups.map((group) => {
            const all = open[group.code] ?? false;
            const turns = all ? group.turns : group.turns.slice(0, SHOWN_TURNS);
            return (
              <li key={group.code} className={styles.findingGroup} data-code={group.code}>
                <div className={styles.findingHead}>
                  <span className={`${styles.severity} ${styles[`sev-${group.info.severity}`]}`}>{group.info.severity}</span>
                  <code className={styles.code}>{group.code}</code>
                  <span className={styles.findingTitle}>{group.info.title}</span>
                  <span className={styles.findingCount}>×{formatNumber(group.count)}</span>
                  <span className={styles.findingRef}>{group.info.ref}</span>
                </div>
                <div className={styles.findingBody}>
                  <p className={styles.findingRule}>{group.info.rule}</p>
                  <div className={styles.findingTurns} aria-label={`Turns with ${group.code}`}>
                    {group.runLevel ? <span className={styles.runLevel}>whole run</span> : null}
                    {turns.map((turn) => (
                      <a
                        key={turn}
                        href={hrefForTurn(turn)}
                        onClick={(event) => {
                          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                          event.preventDefault();
                          onSelectTurn(turn);
                        }}
                        className={`${styles.turnLink} ${turn === selectedTurn ? styles.turnLinkActive : ""}`}
                        aria-label={`${group.info.title} at ${formatTurn(turn)}`}
                        aria-current={turn === selectedTurn ? "true" : undefined}
                      >
                        {formatNumber(turn)}
                      </a>
                    ))}
                    {group.spans.map((span) => (
                      <a
                        key={`${span.turn}-${span.toTurn}`}
                        href={hrefForTurn(span.turn)}
                        onClick={(event) => {
                          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                          event.preventDefault();
                          onSelectTurn(span.turn);
                        }}
                        className={styles.turnLink}
                        title={`${formatCount(span.count, "finding")} in ${formatTurnRange(span.turn, span.toTurn)}; zoom in to list each turn`}
                        aria-label={`${group.info.title}: ${formatCount(span.count, "finding")} in ${formatTurnRange(span.turn, span.toTurn)}`}
                      >
                        {formatNumber(span.turn)}–{formatNumber(span.toTurn)} ×{formatNumber(span.count)}
                      </a>
                    ))}
                    {group.turns.length > SHOWN_TURNS ? (
                      <button type="button" className={styles.moreTurns} onClick={() => setOpen({ ...open, [group.code]: !all })}>
                        {all ? "fewer" : `+${formatNumber(group.turns.length - SHOWN_TURNS)} more`}
                      </button>
                    ) : null}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
