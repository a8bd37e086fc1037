import { AGENT_COMPARISON_CODES, type TFinding, type TFindingCode } from "@/lib/contracts";

const AGENT_CODES = new Set<TFindingCode>(AGENT_COMPARISON_CODES);

/**
 * The findings a what-if rebuild can honestly show: those that do not compare its decisions with
 * the agent's record of what it sent (AGENT_COMPARISON_CODES, contract §7 "What is compared").
 * No agent ran with the what-if's copy and policy, so "the agent did not send X" says nothing
 * about it. Findings about the recorded events themselves (incomplete turns, free requests, the
 * Reviewer's dispatches, …) stay: the what-if rebuilds the same events.
 */
export function whatIfFindings(findings: readonly TFinding[]): TFinding[] {
  return findings.filter((f) => !AGENT_CODES.has(f.code));
}
