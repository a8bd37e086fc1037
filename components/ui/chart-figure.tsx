"use client";

import { useId, useState, type ReactNode } from "react";
import { ScrollRegion } from "./scroll-region";

/** One column of a chart's data table; `unit` is shown in its header ("Baseline (reminders)"). */
export interface ChartColumn {
  key: string;
  label: string;
  unit?: string;
}

/** A chart's data as rows of a real table: the first column names the row (a `<th scope="row">`). */
export interface ChartTable {
  columns: ChartColumn[];
  rows: Record<string, ReactNode>[];
}

/**
 * An accessible chart (WCAG 1.1.1, 1.4.1): a `<figure>` named by its caption, described by a
 * one-sentence summary the caller writes (what the chart shows, in words and units), and a
 * "View as table" toggle that puts the same data in a real `<table>` in place of the drawing.
 * A drawn chart is hidden from assistive technology (the summary and table carry it), so it must
 * not be focusable (recharts: `accessibilityLayer={false}`); see `drawingIsText` for HTML charts.
 */
export function ChartFigure({
  caption,
  unit,
  summary,
  table,
  className,
  drawingIsText = false,
  compact = false,
  children,
}: {
  caption: string;
  /** The unit of the chart's values, shown next to the caption. */
  unit?: string;
  summary: string;
  table: ChartTable;
  className?: string;
  /**
   * The drawing is HTML that reads as text on its own (labels, counts, links), like the Reviewer
   * funnel: it stays in the accessibility tree. A drawn chart (SVG) is hidden; the summary and the
   * table stand for it.
   */
  drawingIsText?: boolean;
  /**
   * The caption and summary are for assistive technology only (the chart sits under a visible
   * heading of its own, like the run page's meter charts); the "View as table" toggle stays visible.
   */
  compact?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  const [asTable, setAsTable] = useState(false);
  const header = (column: ChartColumn) => (column.unit ? `${column.label} (${column.unit})` : column.label);
  const [first, ...rest] = table.columns;
  return (
    <figure
      className={["chart-figure", compact ? "chart-figure-compact" : "", className ?? ""].filter(Boolean).join(" ")}
      aria-labelledby={`${id}-caption`}
      aria-describedby={`${id}-summary`}
    >
      <div className="chart-figure-head">
        <figcaption id={`${id}-caption`} className={compact ? "sr-only" : undefined}>
          {caption}
          {unit ? <span className="chart-figure-unit"> · {unit}</span> : null}
        </figcaption>
        <button
          type="button"
          className="chart-figure-toggle"
          aria-controls={`${id}-body`}
          onClick={() => setAsTable((shown) => !shown)}
          data-as-table={asTable}
        >
          {asTable ? "View as chart" : "View as table"}
        </button>
      </div>
      <p id={`${id}-summary`} className={compact ? "sr-only" : "chart-figure-summary"}>
        {summary}
      </p>
      <div id={`${id}-body`}>
        {asTable ? (
          <ScrollRegion label={`${caption}, as a table`}>
            <table className="data-table">
              <caption className="sr-only">
                {caption}
                {unit ? ` (${unit})` : ""}
              </caption>
              <thead>
                <tr>
                  {table.columns.map((column) => (
                    <th key={column.key} scope="col">
                      {header(column)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, i) => (
                  <tr key={i}>
                    <th scope="row">{row[first.key]}</th>
                    {rest.map((column) => (
                      <td key={column.key} className="num">
                        {row[column.key]}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        ) : (
          <div aria-hidden={drawingIsText ? undefined : true}>{children}</div>
        )}
      </div>
    </figure>
  );
}
