import { ZPolicy, type TPolicy } from "@/lib/contracts";
import { formatBytes, formatMinutes, formatNumber } from "@/lib/format";

/** The policy sections in contract §5's order, with their fields as the editor shows them. */
export const POLICY_SECTIONS = {
  requests: [
    { field: "limit", label: "Request limit", unit: "requests", kind: "int" },
    { field: "deliveryReserve", label: "Reserved for final delivery", unit: "requests", kind: "int", optional: true },
    { field: "stages", label: "Stages", unit: "ratio of usable requests", kind: "stages" },
  ],
  time: [
    { field: "limitMs", label: "Time limit", unit: "minutes", kind: "duration" },
    { field: "stages", label: "Stages", unit: "ratio of the time limit", kind: "stages" },
  ],
  context: [
    { field: "capacityBytes", label: "Request capacity", unit: "bytes", kind: "int" },
    { field: "stages", label: "Stages", unit: "ratio of capacity", kind: "stages" },
  ],
  edits: [
    { field: "perBlockLimit", label: "Edits per block", unit: "edits", kind: "int" },
    { field: "stages", label: "Stages", unit: "ratio of the block's limit", kind: "stages" },
  ],
  review: [
    { field: "everyTurns", label: "Checkpoint every", unit: "turns", kind: "int", optional: true },
    { field: "afterMs", label: "Checkpoint every", unit: "minutes of run time", kind: "duration", optional: true },
  ],
  reviewer: [
    { field: "autoReviewAllowed", label: "Automatic review allowed", unit: null, kind: "flag" },
    { field: "minRequestsLeft", label: "Minimum requests left to admit", unit: "requests", kind: "int", optional: true },
  ],
} as const satisfies Record<keyof TPolicy, readonly PolicyField[]>;

interface PolicyField {
  field: string;
  label: string;
  unit: string | null;
  /** `duration`: a policy field in ms, edited in minutes (an exact value may name its unit: "90000 ms", "90 s"). */
  kind: "int" | "stages" | "flag" | "duration";
  optional?: boolean;
}

export type PolicySection = keyof typeof POLICY_SECTIONS;
export const POLICY_SECTION_NAMES = Object.keys(POLICY_SECTIONS) as PolicySection[];

/** A policy being edited: each section on or off, each field as typed. */
export type PolicyDraft = Record<PolicySection, { on: boolean; values: Record<string, string> }>;

export interface PolicyProblem {
  /** `section.field`, e.g. `requests.stages`. */
  path: string;
  message: string;
}

/** An editable draft of a policy (a section the policy lacks is off, with contract §5's example values ready). */
export function policyDraftFrom(policy: TPolicy | null | undefined): PolicyDraft {
  const draft = {} as PolicyDraft;
  for (const section of POLICY_SECTION_NAMES) {
    const given = policy?.[section] as Record<string, unknown> | undefined;
    const source = given ?? (EXAMPLE[section] as Record<string, unknown>);
    const values: Record<string, string> = {};
    for (const { field, kind } of POLICY_SECTIONS[section] as readonly PolicyField[]) {
      const value = source[field];
      values[field] =
        value === undefined
          ? ""
          : Array.isArray(value)
            ? value.join(", ")
            : kind === "duration"
              ? durationText(Number(value))
              : String(value);
    }
    draft[section] = { on: given !== undefined, values };
  }
  return draft;
}

/** The draft as a policy, with every problem named by field: typing errors first, then the contract's. */
export function policyFromDraft(draft: PolicyDraft): { policy: TPolicy | null; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const input: Record<string, Record<string, unknown>> = {};
  for (const section of POLICY_SECTION_NAMES) {
    if (!draft[section].on) continue;
    const out: Record<string, unknown> = {};
    for (const spec of POLICY_SECTIONS[section] as readonly PolicyField[]) {
      const text = (draft[section].values[spec.field] ?? "").trim();
      const path = `${section}.${spec.field}`;
      if (spec.kind === "flag") out[spec.field] = text === "true";
      else if (text === "") {
        if (!spec.optional) problems.push({ path, message: "required" });
      } else if (spec.kind === "duration") {
        const ms = parseDuration(text);
        if (typeof ms === "string") problems.push({ path, message: ms });
        else out[spec.field] = ms;
      } else if (spec.kind === "int") {
        const n = Number(text);
        if (!Number.isInteger(n)) problems.push({ path, message: `expected a whole number, got ${JSON.stringify(text)}` });
        else out[spec.field] = n;
      } else {
        const parts = text.split(/[\s,]+/).filter(Boolean);
        const bad = parts.find((p) => !Number.isFinite(Number(p)));
        if (bad !== undefined) problems.push({ path, message: `expected numbers separated by commas, got ${JSON.stringify(bad)}` });
        else out[spec.field] = parts.map(Number);
      }
    }
    input[section] = out;
  }
  const parsed = ZPolicy.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.slice(0, 2).map(String).join(".");
      // A field that could not be read as a number already has its problem.
      if (!problems.some((p) => p.path === path)) problems.push({ path, message: issue.message });
    }
  }
  return { policy: problems.length === 0 && parsed.success ? parsed.data : null, problems };
}

export interface PolicyChange {
  path: string;
  before: string;
  after: string;
}

/** What differs between two policies, field by field ("off" for a missing section or field). */
export function diffPolicies(before: TPolicy, after: TPolicy): PolicyChange[] {
  const changes: PolicyChange[] = [];
  for (const section of POLICY_SECTION_NAMES) {
    const a = before[section] as Record<string, unknown> | undefined;
    const b = after[section] as Record<string, unknown> | undefined;
    if (!a && !b) continue;
    if (!a || !b) {
      changes.push({ path: section, before: a ? "on" : "off", after: b ? "on" : "off" });
      continue;
    }
    for (const { field, kind } of POLICY_SECTIONS[section] as readonly PolicyField[]) {
      const x = show(a[field], kind);
      const y = show(b[field], kind);
      if (x !== y) changes.push({ path: `${section}.${field}`, before: x, after: y });
    }
  }
  return changes;
}

function show(value: unknown, kind: PolicyField["kind"]): string {
  if (value === undefined) return "not set";
  if (kind === "duration") return `${durationText(Number(value))}${/ms$/.test(durationText(Number(value))) ? "" : " min"}`;
  return Array.isArray(value) ? value.join(", ") : String(value);
}

const MS_PER = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 } as const;

/**
 * A duration in ms as the editor shows it: minutes when they are a short exact decimal (1,800,000 →
 * "30", 90,000 → "1.5"), else the exact milliseconds with their unit ("1234567 ms"), so a draft
 * always reads back to the same policy.
 */
export function durationText(ms: number): string {
  const minutes = Number((ms / MS_PER.min).toFixed(4));
  return Math.round(minutes * MS_PER.min) === ms ? String(minutes) : `${ms} ms`;
}

/**
 * A duration as typed, in minutes unless it names a unit (`ms`, `s`, `min`, `h`), to whole
 * milliseconds; or the problem with it.
 */
export function parseDuration(text: string): number | string {
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(ms|s|min|h)?$/i.exec(text.trim());
  if (!match) return `expected minutes (e.g. 30 or 1.5), or a value with its unit (90000 ms, 90 s, 1 h), got ${JSON.stringify(text)}`;
  const unit = (match[2]?.toLowerCase() ?? "min") as keyof typeof MS_PER;
  const exact = Number(match[1]) * MS_PER[unit];
  const ms = Math.round(exact);
  if (Math.abs(exact - ms) > 1e-6) return `${text.trim()} is not a whole number of milliseconds (${exact} ms)`;
  return ms;
}

/** One stage's threshold in its meter's unit: whole units (the first count that reaches it), and the exact value. */
export interface Threshold {
  stage: number;
  /** E.g. "275 requests": the first whole count at which the meter is at this stage (R2: ratio >= threshold). */
  text: string;
  /** E.g. "exactly 274.5 requests (0.75 × 366)". */
  exact: string;
}

/**
 * Each stage's threshold of a section in the meter's own unit, for the editor: a count in whole
 * units (requests, edits, bytes: the smallest whole number whose ratio reaches the stage, as R2
 * compares in IEEE doubles; time: whole seconds, shown in minutes) with the exact value beside it.
 * Empty when the section's values do not read as numbers.
 */
export function thresholds(section: PolicySection, values: Record<string, string>): Threshold[] {
  const stages = (values.stages ?? "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  if (stages.some((s) => !Number.isFinite(s))) return [];
  const unitOf: Partial<Record<PolicySection, () => { of: number; whole: (n: number) => string; exact: (n: number) => string } | null>> = {
    requests: () => ({
      of: Number(values.limit) - Number(values.deliveryReserve || 0),
      whole: (n) => `${formatNumber(n)} ${n === 1 ? "request" : "requests"}`,
      exact: (n) => `${formatNumber(n, 6)} requests`,
    }),
    edits: () => ({
      of: Number(values.perBlockLimit),
      whole: (n) => `${formatNumber(n)} ${n === 1 ? "edit" : "edits"}`,
      exact: (n) => `${formatNumber(n, 6)} edits`,
    }),
    context: () => ({ of: Number(values.capacityBytes), whole: (n) => formatBytes(n), exact: (n) => `${formatNumber(n, 6)} bytes` }),
    time: () => {
      const ms = parseDuration(values.limitMs ?? "");
      return typeof ms === "string"
        ? null
        : { of: ms, whole: (n) => formatMinutes(n / MS_PER.min), exact: (n) => `${formatNumber(n, 3)} ms` };
    },
  };
  const unit = unitOf[section]?.();
  if (!unit || !Number.isFinite(unit.of) || unit.of <= 0) return [];
  return stages.map((s, i) => {
    const exact = s * unit.of;
    // The smallest whole n with n / of >= s, compared as R2 does (in doubles, no rounding).
    let n = Math.max(0, Math.ceil(exact));
    while (n > 0 && (n - 1) / unit.of >= s) n--;
    while (n / unit.of < s) n++;
    return { stage: i + 1, text: unit.whole(n), exact: `exactly ${unit.exact(exact)} (${s} × ${formatNumber(unit.of)})` };
  });
}

/** The example policy of contract §5: the values a section starts with when it is switched on. */
const EXAMPLE: Required<TPolicy> = {
  requests: { limit: 60, deliveryReserve: 6, stages: [0.5, 0.75, 0.9] },
  time: { limitMs: 1_800_000, stages: [0.5, 0.75, 0.9] },
  context: { capacityBytes: 200_000, stages: [0.7, 0.85, 0.95] },
  edits: { perBlockLimit: 4, stages: [0.5, 1.0] },
  review: { everyTurns: 10, afterMs: 600_000 },
  reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 },
};
