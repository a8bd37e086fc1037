import { FINDING_CODES, type TFindingCode } from "@/lib/contracts";
import { FINDING_INFO, SEVERITY_ORDER, type FindingSeverity } from "./finding-info";

export type FindingCounts = Partial<Record<TFindingCode, number>>;

/** The most serious severity among a run's findings (violation > mismatch > notice), or null without any. */
export function worstSeverity(byCode: FindingCounts): FindingSeverity | null {
  const present = new Set<FindingSeverity>();
  for (const code of FINDING_CODES) if ((byCode[code] ?? 0) > 0) present.add(FINDING_INFO[code].severity);
  return SEVERITY_ORDER.find((severity) => present.has(severity)) ?? null;
}

/** How many findings of each severity, in SEVERITY_ORDER, leaving out severities with none. */
export function countBySeverity(byCode: FindingCounts): { severity: FindingSeverity; count: number }[] {
  const counts = new Map<FindingSeverity, number>();
  for (const code of FINDING_CODES) {
    const n = byCode[code] ?? 0;
    if (n > 0) counts.set(FINDING_INFO[code].severity, (counts.get(FINDING_INFO[code].severity) ?? 0) + n);
  }
  return SEVERITY_ORDER.filter((s) => counts.has(s)).map((severity) => ({ severity, count: counts.get(severity)! }));
}

/** One line per code, most serious first, then by count: "Dispatch without admission ×2". */
export function describeFindings(byCode: FindingCounts): string[] {
  return FINDING_CODES.filter((code) => (byCode[code] ?? 0) > 0)
    .sort(
      (a, b) =>
        SEVERITY_ORDER.indexOf(FINDING_INFO[a].severity) - SEVERITY_ORDER.indexOf(FINDING_INFO[b].severity) ||
        (byCode[b] ?? 0) - (byCode[a] ?? 0),
    )
    .map((code) => `${code} (${FINDING_INFO[code].severity}) ×${byCode[code]}`);
}
