import { ZPolicy, type TPolicy } from "@/lib/contracts";

/** The policy sections in contract §5's order, with their fields as the editor shows them. */
export const POLICY_SECTIONS = {
  requests: [
    { field: "limit", label: "Request limit", unit: "requests", kind: "int" },
    { field: "deliveryReserve", label: "Reserved for final delivery", unit: "requests", kind: "int", optional: true },
    { field: "stages", label: "Stages", unit: "ratio of usable requests", kind: "stages" },
  ],
  time: [
    { field: "limitMs", label: "Time limit", unit: "ms", kind: "int" },
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
    { field: "afterMs", label: "Checkpoint every", unit: "ms of run time", kind: "int", optional: true },
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
  kind: "int" | "stages" | "flag";
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
    for (const { field } of POLICY_SECTIONS[section]) {
      const value = source[field];
      values[field] = value === undefined ? "" : Array.isArray(value) ? value.join(", ") : String(value);
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
    for (const { field } of POLICY_SECTIONS[section]) {
      const x = show(a[field]);
      const y = show(b[field]);
      if (x !== y) changes.push({ path: `${section}.${field}`, before: x, after: y });
    }
  }
  return changes;
}

function show(value: unknown): string {
  return value === undefined ? "not set" : Array.isArray(value) ? value.join(", ") : String(value);
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
