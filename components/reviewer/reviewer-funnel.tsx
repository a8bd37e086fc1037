import Link from "next/link";
import { FINDING_INFO } from "@/lib/audit/finding-info";
import { prepareReviewerFunnel, type FunnelChart, type FunnelPart } from "@/lib/reviewer/funnel-chart";
import { REVIEWER_FINDING_CODES, type TFindingCode, type TReviewerFunnel } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import { reviewerHref, type ReviewerView } from "@/lib/queries/reviewer-url";
import { ChartFigure, type ChartTable } from "@/components/ui/chart-figure";
import { FindingCode } from "./finding-code";
import styles from "./reviewer-funnel.module.css";

type Props = { funnel: TReviewerFunnel; view: ReviewerView; dimmed: boolean };

/** Candidate → admission → dispatch → completion across the selected runs, with the violations by code. */
export function ReviewerFunnelPanel({ funnel, view, dimmed }: Props) {
  const chart = prepareReviewerFunnel(funnel);
  const violationsHref = reviewerHref(view, { violations: true });
  // The Reviewer codes always, so a zero reads as "none", not "unknown"; any other code counted after them.
  const reviewerCodes: readonly TFindingCode[] = REVIEWER_FINDING_CODES;
  const codes = [...reviewerCodes, ...(Object.keys(funnel.violations) as TFindingCode[]).filter((c) => !reviewerCodes.includes(c))];

  return (
    <div className={`${styles.grid} ${dimmed ? styles.dimmed : ""}`}>
      <section className={styles.panel} aria-labelledby="funnel-title">
        <header className={styles.header}>
          <h2 id="funnel-title" className={styles.title}>
            Funnel
          </h2>
          <span className={styles.meta}>
            count of candidates and dispatches across the selected runs
            {view.violations ? " · only candidates with violations" : ""}
            {view.code ? ` · only ${view.code}, in the runs that have it` : ""}
          </span>
        </header>
        <ChartFigure
          className={styles.figure}
          caption="Candidates through each step"
          unit="candidates"
          summary={funnelSummary(chart)}
          table={funnelTable(chart)}
          drawingIsText
        >
          <ol className={styles.stages}>
            {chart.stages.map((stage) => (
              <li key={stage.key} className={styles.stage} aria-label={`${stage.label}: ${formatNumber(stage.count)}`}>
                <span className={styles.stageLabel}>{stage.label}</span>
                <span className={styles.stageCount}>
                  {stage.key === "candidates" && view.violations ? (
                    <Link
                      href={reviewerHref(view, { violations: undefined })}
                      title="Show every candidate, not only violations"
                      scroll={false}
                    >
                      {formatNumber(stage.count)}
                    </Link>
                  ) : (
                    formatNumber(stage.count)
                  )}
                </span>
                <span className={styles.bar} aria-hidden="true">
                  <span className={styles.barFill} style={{ width: `${Math.max(stage.count > 0 ? 1 : 0, stage.share * 100)}%` }} />
                </span>
                {stage.excess ? (
                  <p className={styles.excess}>
                    <span aria-hidden="true">⚠ </span>
                    {stage.excess}
                  </p>
                ) : null}
                <ul className={styles.parts}>
                  {stage.parts.map((part) => (
                    <Part key={part.label} part={part} violationsHref={violationsHref} />
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </ChartFigure>
        <div className={styles.cancelled}>
          <span className={styles.cancelledLabel}>Cancelled</span>
          <span className={styles.cancelledCount}>{formatNumber(chart.cancelled.total)}</span>
          {chart.cancelled.parts.length ? (
            <ul className={styles.cancelledParts}>
              {chart.cancelled.parts.map((part) => (
                <Part key={part.label} part={part} violationsHref={violationsHref} />
              ))}
            </ul>
          ) : (
            <span className={styles.none}>none</span>
          )}
        </div>
      </section>

      <section className={styles.panel} aria-labelledby="violations-title">
        <header className={styles.header}>
          <h2 id="violations-title" className={styles.title}>
            Violations by code
          </h2>
          {view.code ? (
            <Link className={styles.meta} href={reviewerHref(view, { code: undefined })} scroll={false}>
              every code →
            </Link>
          ) : chart.violations > 0 && !view.violations ? (
            <Link className={styles.meta} href={violationsHref} scroll={false}>
              show only violations →
            </Link>
          ) : (
            <span className={styles.meta}>{formatNumber(chart.violations)} in all</span>
          )}
        </header>
        <ul className={styles.codes}>
          {codes.map((code) => {
            const count = funnel.violations[code] ?? 0;
            const info = FINDING_INFO[code];
            return (
              <li key={code} className={`${styles.code} ${count === 0 ? styles.codeNone : ""}`}>
                <span className={styles.codeCount}>
                  {count > 0 && view.code !== code ? (
                    <Link
                      href={reviewerHref(view, { code, violations: true })}
                      scroll={false}
                      aria-label={`${formatNumber(count)} ${code} — show only these`}
                    >
                      {formatNumber(count)}
                    </Link>
                  ) : (
                    formatNumber(count)
                  )}
                </span>
                <span className={styles.codeText}>
                  <FindingCode code={code} quiet={count === 0} />
                  <span className={styles.codeRule}>
                    {info.rule} <span className={styles.ref}>({info.ref})</span>
                  </span>
                </span>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}

/** The funnel in one sentence, for the figure's description. */
function funnelSummary(chart: FunnelChart): string {
  const steps = chart.stages.map((stage) => `${stage.label.toLowerCase()} ${formatNumber(stage.count)}`).join(", ");
  return `${steps}; cancelled ${formatNumber(chart.cancelled.total)}.`.replace(/^./, (c) => c.toUpperCase());
}

/** The funnel as a table: each step with its count and what left or qualified it. */
function funnelTable(chart: FunnelChart): ChartTable {
  const detail = (parts: FunnelPart[]) => parts.map((part) => `${part.label} ${formatNumber(part.count)}`).join("; ") || "—";
  return {
    columns: [
      { key: "step", label: "Step" },
      { key: "count", label: "Count", unit: "candidates" },
      { key: "detail", label: "Of which", unit: "candidates" },
    ],
    rows: [
      ...chart.stages.map((stage) => ({ step: stage.label, count: formatNumber(stage.count), detail: detail(stage.parts) })),
      { step: "Cancelled", count: formatNumber(chart.cancelled.total), detail: detail(chart.cancelled.parts) },
    ],
  };
}

function Part({ part, violationsHref }: { part: FunnelPart; violationsHref: string }) {
  const violation = part.kind === "violation";
  const title = part.code ? `${part.code} — ${FINDING_INFO[part.code].title}: ${FINDING_INFO[part.code].rule}` : undefined;
  const classes = [
    styles.part,
    part.nested ? styles.nested : "",
    violation ? styles.violation : "",
    part.count === 0 ? styles.zero : "",
  ].join(" ");
  return (
    <li className={classes} title={title}>
      <span className={styles.partLabel}>
        {violation ? (
          <span className={styles.warn} aria-hidden="true">
            ⚠{" "}
          </span>
        ) : null}
        {part.label}
      </span>
      <span className={styles.partCount}>
        {violation && part.count > 0 ? (
          <Link href={violationsHref} scroll={false} aria-label={`${part.label}: ${formatNumber(part.count)} — show only violations`}>
            {formatNumber(part.count)}
          </Link>
        ) : (
          formatNumber(part.count)
        )}
      </span>
    </li>
  );
}
