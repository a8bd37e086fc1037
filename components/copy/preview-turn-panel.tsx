"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { TTurnDecision } from "@/lib/contracts";
import type { CopyDraft } from "@/lib/copy/templates";
import { refitTurn, turnFreeBytes } from "@/lib/copy/preview";
import { formatBytes } from "@/lib/format";
import { runsListQuery } from "@/lib/queries/runs";
import { Panel } from "@/components/ui/panel";
import { StatusMark } from "@/components/ui/status-mark";
import styles from "./copy.module.css";
import type { PreviewTurnState } from "./use-preview-turn";
import { runTurnPath } from "@/lib/queries/paths";
import { ScrollRegion } from "@/components/ui/scroll-region";

/** The recorded turn the preview uses, and that turn's reminders rendered with the draft and fitted again. */
export function PreviewTurnPanel({ preview, draft, problems = 0 }: { preview: PreviewTurnState; draft: CopyDraft; problems?: number }) {
  const runs = useQuery(runsListQuery({}));
  const { runId, turn, detail, choices } = preview;
  const decision = detail.data?.decision ?? null;
  const nextDrop = choices?.dropTurns.find((t) => turn === null || t > turn);
  const previousDrop = choices?.dropTurns.findLast((t) => turn !== null && t < turn);
  const runIds = runs.data?.runs.map((r) => r.runId) ?? [];
  if (runId && !runIds.includes(runId)) runIds.unshift(runId);

  return (
    <Panel id="preview-turn" title="Preview turn" meta="a recorded turn">
      <div className={styles.turnPicker}>
        <label>
          Run
          <select aria-label="Preview run" value={runId ?? ""} onChange={(e) => preview.chooseRun(e.target.value || null)}>
            {runId === null ? <option value="">Choose a run</option> : null}
            {runIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Turn
          <input
            type="number"
            min={0}
            aria-label="Preview turn number"
            value={turn ?? ""}
            onChange={(e) => e.target.value !== "" && preview.chooseTurn(Number(e.target.value))}
          />
        </label>
        <div className={styles.turnSteps}>
          <button
            type="button"
            className="button button-quiet"
            disabled={previousDrop === undefined}
            onClick={() => previousDrop !== undefined && preview.chooseTurn(previousDrop)}
          >
            ← Previous drop
          </button>
          <button
            type="button"
            className="button button-quiet"
            disabled={nextDrop === undefined}
            onClick={() => nextDrop !== undefined && preview.chooseTurn(nextDrop)}
          >
            Next drop →
          </button>
        </div>
      </div>

      {runId === null ? (
        <p className="muted">
          No recorded runs yet: send telemetry or run <code>npm run demo</code> to preview copy on real turns.
        </p>
      ) : preview.summary.isError ? (
        <p className="form-error">{preview.summary.error.message}</p>
      ) : turn === null ? (
        preview.timeline.isPending ? (
          <p className="muted">Finding a turn with reminders…</p>
        ) : (
          <p className="muted">
            {preview.timeline.isError
              ? `The run's turns could not be read (${preview.timeline.error.message}).`
              : "No reminder was due in this run."}{" "}
            Enter a turn number to preview on.
          </p>
        )
      ) : detail.isPending ? (
        <p className="muted">Loading turn {turn ?? "…"}…</p>
      ) : detail.isError ? (
        <p className="form-error">{detail.error.message}</p>
      ) : decision === null ? (
        <p className="muted">
          Turn {turn} was not rebuilt ({detail.data?.exists ? "it has no request.final" : "it has no events"}): pick another turn.
        </p>
      ) : (
        <RefitTable decision={decision} draft={draft} runId={runId} problems={problems} />
      )}
    </Panel>
  );
}

function RefitTable({ decision, draft, runId, problems }: { decision: TTurnDecision; draft: CopyDraft; runId: string; problems: number }) {
  const refit = refitTurn(decision, draft);
  const free = turnFreeBytes(decision);
  return (
    <>
      <dl className={styles.turnFacts}>
        <div>
          <dt>Request</dt>
          <dd>{formatBytes(decision.requiredBytes)}</dd>
        </div>
        <div>
          <dt>Capacity</dt>
          <dd>{decision.capacityBytes === null ? "no limit" : formatBytes(decision.capacityBytes)}</dd>
        </div>
        <div>
          <dt>Free for reminders</dt>
          <dd data-testid="free-bytes">{free === null ? "unlimited" : formatBytes(free)}</dd>
        </div>
      </dl>
      {problems ? (
        <p className={styles.previewHeld} role="status" data-testid="refit-held">
          The draft has {problems === 1 ? "a problem" : `${problems} problems`}: its fit on this turn is not judged until{" "}
          {problems === 1 ? "it is" : "they are"} fixed (see the templates).
        </p>
      ) : null}
      {refit.reminders.length === 0 ? (
        <p className="muted">No reminder was due on this turn.</p>
      ) : (
        <ScrollRegion label="This turn's reminders, recorded copy vs draft">
          <table className="data-table" aria-label="This turn's reminders, recorded copy vs draft">
            <thead>
              <tr>
                <th scope="col">Reminder</th>
                <th scope="col">Recorded</th>
                <th scope="col">Draft</th>
              </tr>
            </thead>
            <tbody>
              {refit.reminders.map((r) => (
                <tr key={`${r.key}:${r.subject ?? ""}`} data-key={r.key}>
                  <th scope="row">
                    {r.key}
                    {r.subject ? ` ${r.subject}` : ""}{" "}
                    <span className="muted">
                      · {r.key === "review" ? "checkpoint" : "stage"} {r.stage}
                    </span>
                  </th>
                  <td>
                    <StatusMark status={r.baseline.status} /> <span className="muted">{formatBytes(r.baseline.bytes)}</span>
                  </td>
                  {problems ? (
                    <td data-testid={`draft-${r.key}`} className={styles.heldCell}>
                      not judged
                    </td>
                  ) : (
                    <td data-testid={`draft-${r.key}`}>
                      <StatusMark status={r.included ? "delivered" : "dropped"} label={false} /> {r.included ? "fits" : "dropped"}{" "}
                      <span className="muted">{formatBytes(r.bytes)}</span>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Included</th>
                <td>
                  {refit.baselineIncluded} · {formatBytes(refit.baselineBytes)}
                </td>
                <td data-testid="draft-included" className={problems ? styles.heldCell : undefined}>
                  {problems ? "—" : `${refit.included} · ${formatBytes(refit.bytes)}`}
                </td>
              </tr>
            </tfoot>
          </table>
        </ScrollRegion>
      )}
      <p className={styles.footnote}>
        Exact for this turn with the same ledger coming in; later turns can change too — the <Link href="/copy/replay">what-if replay</Link>{" "}
        rebuilds whole runs. <Link href={runTurnPath(runId, decision.turn)}>Open turn {decision.turn} in the run</Link>.
      </p>
    </>
  );
}
