import type { TEvent, TFinding, TFindingCode, TPolicy, TReviewerCandidateRow, TRunDecisions } from "@/lib/contracts";
import { admit, EventAudit, inRunOrder, MeterFacts } from "@/lib/core";

/** One Reviewer candidate of one run as the audit shows it: the API's row without the run's columns. */
export type ReviewerRow = Omit<TReviewerCandidateRow, "runId" | "task" | "agent" | "model">;

const NONE: readonly TFindingCode[] = [];

/**
 * The Reviewer audit of one run: every candidate recorded by the agent and every candidate the
 * rebuild says was due, with admissions, the rule's verdict, dispatches, completions,
 * cancellations, the turn's review suggestion, and the violations. Pure; walks events in run order
 * with the same facts as the rebuild, and the core's own audit (EventAudit) decides the Reviewer
 * findings (contract §7), so the rows flag exactly what the rebuild flags, each on its candidate.
 */
export function reviewerRows(events: readonly TEvent[], decisions: TRunDecisions, policyOverride?: TPolicy): ReviewerRow[] {
  const ordered = inRunOrder(events);
  const started = ordered.find((e) => e.type === "run.started");
  const policy = policyOverride ?? (started?.type === "run.started" ? started.body.policy : {});
  const facts = new MeterFacts();
  const audit = new EventAudit(policy);
  const found: TFinding[] = [];
  /** The audit's findings on one event, by code. */
  const observe = (event: TEvent): readonly TFindingCode[] => {
    found.length = 0;
    audit.observe(event, facts, found);
    return found.length === 0 ? NONE : found.map((finding) => finding.code);
  };
  const rows: ReviewerRow[] = [];
  const byCandidate = new Map<string, ReviewerRow>();
  const byDispatch = new Map<string, ReviewerRow["dispatches"][number]>();

  const rowFor = (candidateId: string, turn: number): ReviewerRow => {
    let row = byCandidate.get(candidateId);
    if (!row) {
      row = emptyRow(candidateId, turn, null, "recorded");
      byCandidate.set(candidateId, row);
      rows.push(row);
    }
    return row;
  };

  for (let i = 0; i < ordered.length;) {
    const turn = turnOf(ordered[i]);
    let end = i;
    while (end < ordered.length && turnOf(ordered[end]) === turn) end++;
    for (let k = i; k < end; k++) facts.apply(ordered[k]); // "the facts of the turn"
    for (let k = i; k < end; k++) {
      const event = ordered[k];
      switch (event.type) {
        case "reviewer.candidate": {
          const row = rowFor(event.body.candidateId, event.turn);
          row.turn = event.turn;
          row.checkpoint = event.body.checkpoint ?? row.checkpoint;
          break;
        }
        case "reviewer.admission": {
          const row = rowFor(event.body.candidateId, event.turn);
          row.recorded = { granted: event.body.granted, reasons: event.body.reasons, turn: event.turn };
          if (policy.reviewer) {
            // What R13 says here, with the facts it stands on (the finding itself is the audit's).
            const reviewInProgress = audit.dispatches.inProgress();
            const verdict = admit(policy, facts.requestsUsed, reviewInProgress);
            const usable = policy.requests ? policy.requests.limit - policy.requests.deliveryReserve : undefined;
            row.rule = {
              ...verdict,
              requestsLeft: usable !== undefined && facts.requestsUsed !== undefined ? usable - facts.requestsUsed : null,
              minRequestsLeft: policy.reviewer.minRequestsLeft,
              reviewInProgress,
            };
          }
          row.findings.push(...observe(event));
          break;
        }
        case "reviewer.dispatched": {
          const row = rowFor(event.body.candidateId, event.turn);
          row.findings.push(...observe(event));
          const dispatch = { dispatchId: event.body.dispatchId, turn: event.turn, completedTurn: null, verdict: null };
          row.dispatches.push(dispatch);
          byDispatch.set(event.body.dispatchId, dispatch);
          break;
        }
        case "reviewer.completed": {
          observe(event);
          const dispatch = byDispatch.get(event.body.dispatchId);
          if (dispatch && dispatch.completedTurn === null) {
            dispatch.completedTurn = event.turn;
            dispatch.verdict = event.body.verdict ?? null;
          }
          break;
        }
        case "reviewer.cancelled": {
          const row = rowFor(event.body.candidateId, event.turn);
          row.cancelled = { reason: event.body.reason, turn: event.turn };
          row.findings.push(...observe(event));
          break;
        }
        default:
          observe(event); // findings of the run or the request (FREE_REQUEST, …) belong to no candidate
          break;
      }
    }
    i = end;
  }

  attachRebuilt(rows, decisions);
  return rows.sort((a, b) => a.turn - b.turn || (a.candidateId ?? "").localeCompare(b.candidateId ?? ""));
}

/** Pairs each rebuilt candidate with a recorded one of the same turn (and checkpoint), or adds it. */
function attachRebuilt(rows: ReviewerRow[], decisions: TRunDecisions): void {
  for (const decision of decisions.turns) {
    const review = decision.reminders.find((r) => r.key === "review");
    const suggestion = review ? { stage: review.stage, status: review.status } : null;
    for (const row of rows) if (row.turn === decision.turn && row.suggestion === null) row.suggestion = suggestion;
    if (!decision.reviewer) continue;
    const { checkpoint } = decision.reviewer.candidate;
    const rebuilt = { checkpoint, ...decision.reviewer.admission };
    const match = rows.find(
      (r) => r.turn === decision.turn && r.rebuilt === null && (r.checkpoint === null || r.checkpoint === checkpoint),
    );
    if (match) {
      match.rebuilt = rebuilt;
      match.source = "both";
      match.checkpoint ??= checkpoint;
    } else {
      const row = emptyRow(null, decision.turn, checkpoint, "rebuilt");
      row.rebuilt = rebuilt;
      row.suggestion = suggestion;
      rows.push(row);
    }
  }
}

function emptyRow(candidateId: string | null, turn: number, checkpoint: number | null, source: ReviewerRow["source"]): ReviewerRow {
  return {
    candidateId,
    turn,
    checkpoint,
    source,
    rebuilt: null,
    recorded: null,
    rule: null,
    dispatches: [],
    cancelled: null,
    suggestion: null,
    findings: [],
  };
}

function turnOf(event: TEvent): number | undefined {
  return event.type === "run.started" || event.type === "run.ended" ? undefined : event.turn;
}
