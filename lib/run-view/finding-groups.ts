import { FINDING_CODES, type TFindingCode, type TFindingMarker } from "@/lib/contracts";
import { findingInfo, SEVERITY_ORDER, type FindingInfo } from "@/lib/audit/finding-info";

export interface FindingGroup {
  code: TFindingCode;
  info: FindingInfo;
  /** Findings of this code (a turn may hold several). */
  count: number;
  /** The turns that hold one, ascending, without repeats. */
  turns: number[];
  /** Folded markers (a long window, see ZFindingMarker): this many findings of the code from `turn` to `toTurn`. */
  spans: { turn: number; toTurn: number; count: number }[];
  /** Run-level findings of this code (turn null). */
  runLevel: number;
}

/**
 * The findings view: findings grouped by code, violations first (then mismatches, notices), and
 * within a severity in contract §7's order; each group counts its findings and lists its turns.
 */
export function groupFindings(
  findings: readonly TFindingMarker[],
  runFindings: readonly { code: TFindingCode; count: number }[],
): FindingGroup[] {
  const groups = new Map<TFindingCode, FindingGroup>();
  const groupOf = (code: TFindingCode) => {
    let group = groups.get(code);
    if (!group) groups.set(code, (group = { code, info: findingInfo(code), count: 0, turns: [], spans: [], runLevel: 0 }));
    return group;
  };
  for (const { code, turn, toTurn, count } of findings) {
    const group = groupOf(code);
    group.count += count;
    if (toTurn === undefined) group.turns.push(turn);
    else group.spans.push({ turn, toTurn, count });
  }
  for (const { code, count } of runFindings) {
    const group = groupOf(code);
    group.count += count;
    group.runLevel += count;
  }
  for (const group of groups.values()) group.turns = [...new Set(group.turns)].sort((a, b) => a - b);
  return [...groups.values()].sort(
    (a, b) =>
      SEVERITY_ORDER.indexOf(a.info.severity) - SEVERITY_ORDER.indexOf(b.info.severity) ||
      FINDING_CODES.indexOf(a.code) - FINDING_CODES.indexOf(b.code),
  );
}
