"use client";

import { formatNumber } from "@/lib/format";
import {
  parseDuration,
  POLICY_SECTION_NAMES,
  POLICY_SECTIONS,
  thresholds,
  type PolicyDraft,
  type PolicyProblem,
  type PolicySection,
} from "@/lib/copy/policy-draft";
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
                      inputMode={spec.kind === "int" ? "numeric" : spec.kind === "duration" ? "text" : "decimal"}
                      title={spec.kind === "duration" ? exactMs(value) || undefined : undefined}
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
                {spec.kind === "stages" && messages.length === 0 ? <ThresholdHint section={section} values={draft.values} /> : null}
                {spec.kind === "duration" && messages.length === 0 && exactMs(value) ? (
                  <p className={styles.hint}>
                    {exactMs(value)} <span className="muted">(type minutes, or an exact value with its unit: 90000 ms, 90 s)</span>
                  </p>
                ) : null}
              </div>
            );
          })}
        </div>
      ) : null}
    </fieldset>
  );
}

/**
 * Each stage threshold in the meter's own whole units, e.g. "stage 2 at 275 requests", with the
 * exact value on hover (title) and for screen readers.
 */
function ThresholdHint({ section, values }: { section: PolicySection; values: Record<string, string> }) {
  const list = thresholds(section, values);
  if (list.length === 0) return null;
  return (
    <p className={styles.hint} data-testid={`thresholds-${section}`}>
      {list.map((t, i) => (
        <span key={t.stage}>
          {i > 0 ? " · " : ""}
          <span title={t.exact} aria-label={`stage ${t.stage} at ${t.text}, ${t.exact}`}>
            stage {t.stage} at {t.text}
          </span>
        </span>
      ))}
    </p>
  );
}

/** A duration field's exact value, e.g. "= 1,800,000 ms" ("" while it does not read). */
function exactMs(value: string): string {
  if (!value.trim()) return "";
  const ms = parseDuration(value);
  return typeof ms === "string" ? "" : `= ${formatNumber(ms)} ms`;
}
