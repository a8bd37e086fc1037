"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { TExperimentCreate } from "@/lib/contracts";
import { formatInstant } from "@/lib/format";
import { createExperiment, experimentKeys, experimentsQuery } from "@/lib/queries/experiments";
import { Panel } from "@/components/ui/panel";
import { ExperimentForm } from "./experiment-form";
import styles from "./experiments.module.css";

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
  const router = useRouter();
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (body: TExperimentCreate) => createExperiment(body),
    onSuccess: (experiment) => {
      void client.invalidateQueries({ queryKey: experimentKeys.all });
      router.push(`/experiments/${encodeURIComponent(experiment.id)}`);
    },
  });
  return (
    <Panel id="experiment-new" title="New experiment" meta="saved as a draft; start it when the design is right">
      <ExperimentForm
        label="New experiment"
        submitLabel="Save the draft"
        pending={create.isPending}
        error={create.error}
        onSubmit={(body) => create.mutate(body)}
      />
    </Panel>
  );
}
