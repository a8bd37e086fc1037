"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { REMINDER_KEYS, type TExperimentCreate, type TReminderKey } from "@/lib/contracts";
import { formatInstant } from "@/lib/format";
import { ApiRequestError } from "@/lib/queries/api-fetch";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { createExperiment, experimentKeys, experimentsQuery } from "@/lib/queries/experiments";
import { Panel } from "@/components/ui/panel";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./experiments.module.css";

type ArmDraft = { name: string; weight: string; plannedRuns: string; copyVersionId: string; policyVersionId: string };

const newArm = (name: string): ArmDraft => ({ name, weight: "1", plannedRuns: "100", copyVersionId: "", policyVersionId: "" });

/** /experiments: the project's experiments and a form to design a new one (a draft). */
export function ExperimentsPage() {
  const list = useQuery(experimentsQuery());
  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <h1>Experiments</h1>
        <p className="muted">
          Copy and policy experiments: each run is assigned an arm by a hash of the experiment and run ids (contract §10), renders with that
          arm&apos;s copy or policy, and the results compare the arms with intervals once every arm has its planned runs. See also the
          delivered vs dropped follow-up and fatigue on <Link href="/trends#effect-delivered-dropped">Trends</Link>.
        </p>
      </header>
      <Panel id="experiment-list" title="Experiments" meta={list.data ? `${list.data.experiments.length}` : undefined}>
        {list.isError ? (
          <p role="alert" className={styles.error}>
            The experiments could not be loaded: {list.error.message}
          </p>
        ) : !list.data ? (
          <p aria-busy="true">Loading experiments…</p>
        ) : list.data.experiments.length === 0 ? (
          <p>No experiments yet. Design one below.</p>
        ) : (
          <ul className={styles.list}>
            {list.data.experiments.map((e) => (
              <li key={e.id}>
                <Link href={`/experiments/${encodeURIComponent(e.id)}`}>{e.name}</Link> · {e.key} · {e.status} · {e.arms.length} arms (
                {e.arms.map((a) => a.name).join(", ")}) · created {formatInstant(e.createdAt)} by {e.createdBy}
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <NewExperiment />
    </div>
  );
}

function NewExperiment() {
  const id = useId();
  const hydrated = useHydrated() ? "true" : undefined;
  const router = useRouter();
  const client = useQueryClient();
  const copies = useQuery(copyVersionsQuery());
  const policies = useQuery(policyVersionsQuery());
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [key, setKey] = useState<TReminderKey>("requests");
  const [arms, setArms] = useState<ArmDraft[]>([newArm("control"), newArm("B")]);
  const create = useMutation({
    mutationFn: (body: TExperimentCreate) => createExperiment(body),
    onSuccess: (experiment) => {
      void client.invalidateQueries({ queryKey: experimentKeys.all });
      router.push(`/experiments/${encodeURIComponent(experiment.id)}`);
    },
  });
  const setArm = (i: number, change: Partial<ArmDraft>) => setArms(arms.map((a, j) => (j === i ? { ...a, ...change } : a)));
  const submit = () =>
    create.mutate({
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
  const problem =
    create.error instanceof ApiRequestError
      ? `${create.error.path ? `${create.error.path}: ` : ""}${create.error.message}`
      : create.error?.message;
  return (
    <Panel id="experiment-new" title="New experiment" meta="saved as a draft; start it when the design is right">
      <form
        className={styles.form}
        aria-label="New experiment"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className={styles.field} htmlFor={`${id}-name`}>
          <span>Experiment name</span>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={80}
            data-hydrated={hydrated}
          />
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
            <button
              type="button"
              className="button button-quiet"
              onClick={() => setArms([...arms, newArm(String.fromCharCode(65 + arms.length - 1))])}
            >
              Add an arm
            </button>
          </div>
        </fieldset>
        <p className="muted">
          Plan the runs per arm before starting and keep to the plan: the results name no winner until every arm has its planned ended runs.
        </p>
        <div className={styles.actions}>
          <button type="submit" className="button" disabled={create.isPending} data-hydrated={hydrated}>
            Save the draft
          </button>
        </div>
        {problem ? (
          <p role="alert" className={styles.error}>
            {problem}
          </p>
        ) : null}
      </form>
    </Panel>
  );
}
