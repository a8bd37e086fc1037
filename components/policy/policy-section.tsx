"use client";

import { formatBytes, formatMinutes, formatNumber } from "@/lib/format";
import { POLICY_SECTION_NAMES, POLICY_SECTIONS, type PolicyDraft, type PolicyProblem, type PolicySection } from "@/lib/copy/policy-draft";
import styles from "./policy.module.css";

const TITLES: Record<PolicySection, { title: string; about: string }> = {
  requests: { title: "Requests", about: "model requests used of the usable ones (limit − reserve)" },
  time: { title: "Time", about: "elapsed run time of the limit" },
  context: { title: "Context", about: "the final request's bytes of capacity; also the byte limit on fitting" },
  edits: { title: "Edits", about: "edits used of each block's limit" },
  review: { title: "Review checkpoints", about: "when a review suggestion is due (R7)" },
  reviewer: { title: "Reviewer admission", about: "Reviewer candidates and their admission check (R13)" },
};

type Props = {
  section: PolicySection;
  draft: PolicyDraft[PolicySection];
  problems: readonly PolicyProblem[];
  onToggle: (on: boolean) => void;
  onChange: (field: string, value: string) => void;
};

/**
 * Every section of the policy editor, in the policy's order: switching one on or off and typing in
 * its fields update the draft through `onDraft`.
 */
export function PolicySections({
  draft,
  problems,
  onDraft,
}: {
  draft: PolicyDraft;
  problems: readonly PolicyProblem[];
  onDraft: (update: (draft: PolicyDraft) => PolicyDraft) => void;
}) {
  return POLICY_SECTION_NAMES.map((section) => (
    <PolicySectionEditor
      key={section}
      section={section}
      draft={draft[section]}
      problems={problems}
      onToggle={(on) => onDraft((d) => ({ ...d, [section]: { ...d[section], on } }))}
      onChange={(field, value) =>
        onDraft((d) => ({ ...d, [section]: { ...d[section], values: { ...d[section].values, [field]: value } } }))
      }
    />
  ));
}

/** One policy section: on or off, its fields with their units, each field's problems under it. */
export function PolicySectionEditor({ section, draft, problems, onToggle, onChange }: Props) {
  const { title, about } = TITLES[section];
  const sectionProblems = [...new Set(problems.filter((p) => p.path === section).map((p) => p.message))];
  return (
    <fieldset className={styles.section} data-section={section}>
      <legend>
        <label className={styles.toggle}>
          <input type="checkbox" checked={draft.on} onChange={(e) => onToggle(e.target.checked)} aria-label={`${title} section on`} />
          {title}
        </label>
        <span className={styles.about}>{draft.on ? about : "off: this meter (or rule) is switched off"}</span>
      </legend>
      {sectionProblems.map((message) => (
        <p key={message} className={styles.problem} role="alert">
          {message}
        </p>
      ))}
      {draft.on ? (
        <div className={styles.fields}>
          {POLICY_SECTIONS[section].map((spec) => {
            const path = `${section}.${spec.field}`;
            const messages = [...new Set(problems.filter((p) => p.path === path).map((p) => p.message))];
            const value = draft.values[spec.field] ?? "";
            const label = `${title} ${spec.label.toLowerCase()}${spec.field === "afterMs" ? " (time)" : ""}`;
            return (
              <div key={spec.field} className={styles.field}>
                {spec.kind === "flag" ? (
                  <label className={styles.flag}>
                    <input type="checkbox" checked={value === "true"} onChange={(e) => onChange(spec.field, String(e.target.checked))} />
                    {spec.label}
                  </label>
                ) : (
                  <label>
                    <span className={styles.label}>
                      {spec.label} {spec.unit ? <span className="unit">{spec.unit}</span> : null}
                    </span>
                    <input
                      value={value}
                      inputMode={spec.kind === "int" ? "numeric" : "decimal"}
                      aria-label={label}
                      aria-invalid={messages.length > 0}
                      className={messages.length ? styles.invalid : undefined}
                      placeholder={"optional" in spec && spec.optional ? "not set" : undefined}
                      onChange={(e) => onChange(spec.field, e.target.value)}
                    />
                  </label>
                )}
                {messages.map((m) => (
                  <p key={m} className={styles.problem} role="alert">
                    {spec.label}: {m}
                  </p>
                ))}
                {spec.kind === "stages" && messages.length === 0 ? (
                  <p className={styles.hint}>{thresholdHint(section, draft.values)}</p>
                ) : null}
                {spec.field === "limitMs" || spec.field === "afterMs" ? <p className={styles.hint}>{minutesHint(value)}</p> : null}
              </div>
            );
          })}
        </div>
      ) : null}
    </fieldset>
  );
}

/** Each stage threshold in the meter's own unit, e.g. "stage 1 at 27 requests". */
function thresholdHint(section: PolicySection, values: Record<string, string>): string {
  const stages = (values.stages ?? "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  const denominator: Record<string, () => [number, (n: number) => string] | null> = {
    requests: () => [Number(values.limit) - Number(values.deliveryReserve || 0), (n) => `${formatNumber(n, 1)} requests`],
    time: () => [Number(values.limitMs) / 60_000, (n) => formatMinutes(n)],
    context: () => [Number(values.capacityBytes), (n) => formatBytes(Math.ceil(n))],
    edits: () => [Number(values.perBlockLimit), (n) => `${formatNumber(n, 1)} edits`],
  };
  const pair = denominator[section]?.();
  if (!pair || !Number.isFinite(pair[0])) return "";
  const [of, format] = pair;
  return stages.map((s, i) => `stage ${i + 1} at ${format(s * of)}`).join(" · ");
}

function minutesHint(value: string): string {
  const ms = Number(value);
  return value.trim() && Number.isFinite(ms) ? `= ${formatMinutes(ms / 60_000)}` : "";
}
