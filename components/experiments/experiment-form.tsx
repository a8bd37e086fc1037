"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { REMINDER_KEYS, type TExperiment, type TExperimentCreate, type TReminderKey } from "@/lib/contracts";
import { ApiRequestError } from "@/lib/queries/api-fetch";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./experiments.module.css";

type ArmDraft = { name: string; weight: string; plannedRuns: string; copyVersionId: string; policyVersionId: string };

const newArm = (name: string): ArmDraft => ({ name, weight: "1", plannedRuns: "100", copyVersionId: "", policyVersionId: "" });

/** The first of B, C, D, … (then B2, C2, …) that no arm is named yet. */
function unusedName(arms: readonly ArmDraft[]): string {
  const taken = new Set(arms.map((a) => a.name));
  for (let round = 1; ; round++) {
    for (let c = 66; c <= 90; c++) {
      const name = `${String.fromCharCode(c)}${round > 1 ? round : ""}`;
      if (!taken.has(name)) return name;
    }
  }
}

/** The form's fields for a draft read back (editing it), or a new design's. */
function initialOf(draft: TExperiment | undefined) {
  if (!draft) return { name: "", note: "", key: "requests" as TReminderKey, arms: [newArm("control"), newArm("B")] };
  return {
    name: draft.name,
    note: draft.note ?? "",
    key: draft.key,
    arms: draft.arms.map((a) => ({
      name: a.name,
      weight: String(a.weight),
      plannedRuns: String(a.plannedRuns),
      copyVersionId: a.copyVersionId ?? "",
      policyVersionId: a.policyVersionId ?? "",
    })),
  };
}

/**
 * An experiment's design: name, note, key and arms (weight, planned runs, copy and policy version).
 * Creates a draft (`draft` absent) or edits one (`draft` given: its fields to start from). The server
 * validates (weights, versions of the project, names) and its error names the field.
 */
export function ExperimentForm({
  draft,
  label,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  draft?: TExperiment;
  label: string;
  submitLabel: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (body: TExperimentCreate) => void;
}) {
  const id = useId();
  const hydrated = useHydrated() ? "true" : undefined;
  const copies = useQuery(copyVersionsQuery());
  const policies = useQuery(policyVersionsQuery());
  const [initial] = useState(() => initialOf(draft));
  const [name, setName] = useState(initial.name);
  const [note, setNote] = useState(initial.note);
  const [key, setKey] = useState<TReminderKey>(initial.key);
  const [arms, setArms] = useState<ArmDraft[]>(initial.arms);
  const setArm = (i: number, change: Partial<ArmDraft>) => setArms(arms.map((a, j) => (j === i ? { ...a, ...change } : a)));
  const submit = () =>
    onSubmit({
      name,
      ...(note ? { note } : {}),
      key,
      arms: arms.map((a) => ({
        name: a.name,
        weight: Number(a.weight),
        plannedRuns: Number(a.plannedRuns),
        ...(a.copyVersionId ? { copyVersionId: a.copyVersionId } : {}),
        ...(a.policyVersionId ? { policyVersionId: a.policyVersionId } : {}),
      })),
    });
  const problem = error instanceof ApiRequestError ? `${error.path ? `${error.path}: ` : ""}${error.message}` : error?.message;
  return (
    <form
      className={styles.form}
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label className={styles.field} htmlFor={`${id}-name`}>
        <span>Experiment name</span>
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} data-hydrated={hydrated} />
      </label>
      <label className={styles.field} htmlFor={`${id}-note`}>
        <span>Hypothesis or note (optional)</span>
        <input id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
      </label>
      <label className={styles.field} htmlFor={`${id}-key`}>
        <span>Reminder key it is about (the verdict is on its follow-up)</span>
        <select id={`${id}-key`} value={key} onChange={(e) => setKey(e.target.value as TReminderKey)}>
          {REMINDER_KEYS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <fieldset className={styles.arms}>
        <legend>Arms (the first is the control)</legend>
        {arms.map((arm, i) => (
          <div key={i} className={styles.arm} role="group" aria-label={`Arm ${i + 1}`}>
            <label className={styles.field} htmlFor={`${id}-arm${i}-name`}>
              <span>Name</span>
              <input
                id={`${id}-arm${i}-name`}
                value={arm.name}
                onChange={(e) => setArm(i, { name: e.target.value })}
                required
                maxLength={200}
              />
            </label>
            <label className={styles.field} htmlFor={`${id}-arm${i}-weight`}>
              <span>Weight</span>
              <input
                id={`${id}-arm${i}-weight`}
                type="number"
                min={0}
                step={1}
                value={arm.weight}
                onChange={(e) => setArm(i, { weight: e.target.value })}
              />
            </label>
            <label className={styles.field} htmlFor={`${id}-arm${i}-planned`}>
              <span>Planned runs</span>
              <input
                id={`${id}-arm${i}-planned`}
                type="number"
                min={1}
                step={1}
                value={arm.plannedRuns}
                onChange={(e) => setArm(i, { plannedRuns: e.target.value })}
              />
            </label>
            <label className={styles.field} htmlFor={`${id}-arm${i}-copy`}>
              <span>Copy version</span>
              <select id={`${id}-arm${i}-copy`} value={arm.copyVersionId} onChange={(e) => setArm(i, { copyVersionId: e.target.value })}>
                <option value="">the agent&apos;s own</option>
                {(copies.data?.versions ?? []).map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
              </select>
            </label>
            <label className={styles.field} htmlFor={`${id}-arm${i}-policy`}>
              <span>Policy version (a holdout: remind off)</span>
              <select
                id={`${id}-arm${i}-policy`}
                value={arm.policyVersionId}
                onChange={(e) => setArm(i, { policyVersionId: e.target.value })}
              >
                <option value="">the agent&apos;s own</option>
                {(policies.data?.versions ?? []).map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
              </select>
            </label>
            {arms.length > 2 ? (
              <button type="button" className="button button-quiet" onClick={() => setArms(arms.filter((_, j) => j !== i))}>
                Remove arm {i + 1}
              </button>
            ) : null}
          </div>
        ))}
        <div className={styles.actions}>
          <button type="button" className="button button-quiet" onClick={() => setArms([...arms, newArm(unusedName(arms))])}>
            Add an arm
          </button>
        </div>
      </fieldset>
      <p className="muted">
        Plan the runs per arm before starting and keep to the plan: the results name no winner until every arm has its planned ended runs.
      </p>
      <div className={styles.actions}>
        <button type="submit" className="button" disabled={pending} data-hydrated={hydrated}>
          {submitLabel}
        </button>
      </div>
      {problem ? (
        <p role="alert" className={styles.error}>
          {problem}
        </p>
      ) : null}
    </form>
  );
}
