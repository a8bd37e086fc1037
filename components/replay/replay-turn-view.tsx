"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { TFinding, TTurnDecision } from "@/lib/contracts";
import { compareUrl } from "@/lib/compare-view/compare-url";
import { formatBytes } from "@/lib/format";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { replayTurnQuery } from "@/lib/queries/replay";
import { replayVersionParts } from "@/lib/replay/replay-versions";
import { FittingWaterfall } from "@/components/inspector/fitting-waterfall";
import { useTurnKeys } from "@/components/inspector/use-turn-keys";
import { Panel } from "@/components/ui/panel";
import { StatusMark } from "@/components/ui/status-mark";
import { replayTurnHref } from "./changed-turns";
import styles from "./replay-turn.module.css";
import { runTurnPath } from "@/lib/queries/paths";

/** One turn of a replayed run: the recorded decisions (baseline) beside the what-if, and what changed. */
export function ReplayTurnView({ jobId, runId, turn }: { jobId: string; runId: string; turn: number }) {
  const view = useQuery(replayTurnQuery(jobId, runId, turn));
  const copyVersions = useQuery(copyVersionsQuery());
  const policyVersions = useQuery(policyVersionsQuery());
  const back = `/copy/replay?job=${encodeURIComponent(jobId)}`;
  const router = useRouter();
  // ← → step through the run's changed turns, as in the turn inspector.
  useTurnKeys(view.data?.previousChanged ?? null, view.data?.nextChanged ?? null, (next) =>
    router.push(replayTurnHref(jobId, runId, next)),
  );

  if (view.isError) {
    return (
      <div className={styles.page}>
        <p className="form-error" role="alert">
          {view.error.message}
        </p>
        <Link href={back}>← Back to the replay</Link>
      </div>
    );
  }
  if (!view.data) return <p className="muted">Loading turn {turn}…</p>;

  const { baseline, whatIf, changes, previousChanged, nextChanged, copyVersionId, policyVersionId } = view.data;
  const versions = [...(copyVersions.data?.versions ?? []), ...(policyVersions.data?.versions ?? [])];
  const what = replayVersionParts({ copyVersionId, policyVersionId }, (id) => versions.find((v) => v.id === id)?.name).join(" and ");

  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <div>
          <p className="eyebrow">
            <Link href={back}>What-if replay</Link> · <Link href={runTurnPath(runId, turn)}>{runId}</Link> ·{" "}
            <Link href={compareUrl({ a: runId, replay: jobId, turn })}>Compare with the recorded run</Link>
          </p>
          <h1>
            Turn {turn}: baseline vs {what}
          </h1>
        </div>
        <nav className={styles.nav} aria-label="Changed turns" title="← → also step through the changed turns">
          {previousChanged !== null ? (
            <Link href={replayTurnHref(jobId, runId, previousChanged)}>← changed turn {previousChanged}</Link>
          ) : (
            <span className="muted">first changed turn</span>
          )}
          {nextChanged !== null ? (
            <Link href={replayTurnHref(jobId, runId, nextChanged)}>changed turn {nextChanged} →</Link>
          ) : (
            <span className="muted">last changed turn</span>
          )}
        </nav>
      </header>

      <Panel id="turn-changes" title="What changed" meta={changes.length ? `${changes.length}` : "nothing"}>
        {changes.length ? (
          <ul className={styles.changes}>
            {changes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        ) : (
          <p className="muted">This turn&apos;s decisions are the same in both.</p>
        )}
      </Panel>

      <div className={styles.sides}>
        <Side
          title="Baseline"
          note="the run's own copy and policy, as recorded"
          decision={baseline}
          findings={view.data.baselineFindings}
          id="baseline"
        />
        <Side
          title="What-if"
          note={what}
          decision={whatIf}
          findings={view.data.whatIfFindings}
          id="what-if"
          findingsNote="Findings that compare with the agent's record (e.g. MISSING_REMINDER) are left out here: no agent ran with this copy and policy."
        />
      </div>
    </div>
  );
}

function Side({
  title,
  note,
  decision,
  findings,
  id,
  findingsNote,
}: {
  findingsNote?: string;
  title: string;
  note: string;
  decision: TTurnDecision | null;
  findings: TFinding[];
  id: string;
}) {
  return (
    <Panel id={id} title={title} meta={note}>
      {decision === null ? (
        <p className="muted">Not rebuilt on this side (no request.final, or no events).</p>
      ) : (
        <>
          <ol className={styles.reminders} aria-label={`${title} reminders`}>
            {decision.reminders.length === 0 ? <li className="muted">No reminders.</li> : null}
            {decision.reminders.map((r) => (
              <li key={`${r.key}:${r.subject ?? ""}`} data-key={r.key} data-status={r.status}>
                <p className={styles.reminderHead}>
                  <strong>{r.key}</strong>
                  {r.subject ? ` ${r.subject}` : ""} · {r.key === "review" ? "checkpoint" : "stage"} {r.stage}{" "}
                  <StatusMark status={r.status} />{" "}
                  <span className="muted">
                    {formatBytes(r.bytes)}
                    {r.status === "dropped" && r.freeBytes !== undefined ? `, ${formatBytes(r.freeBytes)} free` : ""}
                  </span>
                </p>
                <p className={styles.reminderText}>{r.text}</p>
              </li>
            ))}
          </ol>
          <FittingWaterfall decision={decision} id={`${id}-fitting`} title={`${title} fitting`} />
          {findings.length ? (
            <ul className={styles.findings} aria-label={`${title} findings`}>
              {findings.map((f, i) => (
                <li key={i}>
                  <code>{f.code}</code> {f.detail}
                </li>
              ))}
            </ul>
          ) : null}
          {findingsNote ? (
            <p className="muted" data-testid={`${id}-findings-note`}>
              {findingsNote}
            </p>
          ) : null}
        </>
      )}
    </Panel>
  );
}
