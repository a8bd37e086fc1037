"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { TPolicy, TPolicyVersion } from "@/lib/contracts";
import { diffPolicies, policyDraftFrom, policyFromDraft, type PolicyDraft } from "@/lib/copy/policy-draft";
import { policyVersionsQuery, savePolicyVersion } from "@/lib/queries/copy";
import { runsListQuery, runSummaryQuery } from "@/lib/queries/runs";
import { Panel } from "@/components/ui/panel";
import { EditorColumns, TuningPage } from "@/components/ui/tuning-page";
import { SaveVersionForm } from "@/components/versions/save-version-form";
import { VersionsPanel } from "@/components/versions/version-list";
import styles from "./policy.module.css";
import { PolicySections } from "./policy-section";
import { formatCount } from "@/lib/format";
import { draftKey, isSectionDrafts } from "@/lib/copy/kept-drafts";
import { POLICY_SECTION_NAMES } from "@/lib/copy/policy-draft";
import { KeptDraftNotice } from "@/components/versions/kept-draft-notice";
import { useKeptDraft } from "@/components/versions/use-kept-draft";

const isPolicyDraft = isSectionDrafts(POLICY_SECTION_NAMES) as (value: unknown) => value is PolicyDraft;

/** Where a policy draft came from: a saved version, or a recorded run's own policy. */
export type PolicyBase = { versionId: string } | { runId: string; policy: TPolicy } | null;

type Props = { project: string; initialBase: PolicyBase };

/**
 * The policy editor: thresholds and limits of every section, checked by the policy contract as
 * they are typed (stages ascending and positive, limits in range), each stage shown in its
 * meter's own unit, compared with the policy it came from, and saved as a new immutable version.
 */
export function PolicyWorkbench({ project, initialBase }: Props) {
  const versions = useQuery(policyVersionsQuery());
  const list = versions.data?.versions ?? [];
  const [base, setBase] = useState<PolicyBase>(initialBase);
  const baseVersion = base && "versionId" in base ? (list.find((v) => v.id === base.versionId) ?? null) : null;
  const basePolicy: TPolicy = useMemo(() => (base && "runId" in base ? base.policy : (baseVersion?.policy ?? {})), [base, baseVersion]);
  const baseName = base && "runId" in base ? `run ${base.runId}'s policy` : baseVersion ? `“${baseVersion.name}”` : "an empty policy";
  const [draft, setDraft] = useState<PolicyDraft>(() => policyDraftFrom(basePolicy));

  useEffect(() => {
    const url = new URL(window.location.href);
    url.searchParams.delete("from");
    url.searchParams.delete("run");
    if (base && "versionId" in base) url.searchParams.set("from", base.versionId);
    if (base && "runId" in base) url.searchParams.set("run", base.runId);
    if (url.href !== window.location.href) window.history.replaceState(null, "", url);
  }, [base]);

  const { policy, problems } = useMemo(() => policyFromDraft(draft), [draft]);
  const baseDraft = useMemo(() => policyDraftFrom(basePolicy), [basePolicy]);
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(baseDraft), [draft, baseDraft]);
  const baseKey = base && "runId" in base ? `run:${base.runId}` : base ? base.versionId : null;
  // Unsaved edits are kept in this browser per project and policy edited from, and leaving asks first.
  const kept = useKeptDraft({ storageKey: draftKey("policy", project, baseKey), draft, dirty, isDraft: isPolicyDraft, restore: setDraft });
  const changes = useMemo(() => (policy ? diffPolicies(basePolicy, policy) : []), [basePolicy, policy]);
  const blocked = problems.length
    ? `Fix ${problems.length === 1 ? "the problem" : `the ${problems.length} problems`} first.`
    : changes.length === 0
      ? `Nothing changed from ${baseName}.`
      : null;

  const editFrom = (id: string | null) => {
    const version = list.find((v) => v.id === id);
    if (!version) return;
    setBase({ versionId: version.id });
    setDraft(policyDraftFrom(version.policy));
  };
  const onSaved = (version: TPolicyVersion) => {
    kept.forget();
    setBase({ versionId: version.id });
    setDraft(policyDraftFrom(version.policy));
  };

  return (
    <TuningPage
      project={project}
      title="Reminder policy"
      current="/copy/policy"
      lead={
        <>
          Editing from {baseName}. Thresholds decide which stages fire; limits and capacity are the facts&apos; denominators. Saved versions
          never change; try one with the what-if replay.
        </>
      }
    >
      <KeptDraftNotice kept={kept} onReset={() => setDraft(baseDraft)} />
      <EditorColumns
        editor={
          <Panel id="policy" title="Sections" meta={problems.length ? formatCount(problems.length, "problem") : "valid"}>
            <PolicySections draft={draft} problems={problems} onDraft={setDraft} />
          </Panel>
        }
        side={
          <>
            <Panel id="policy-changes" title="Changes" meta={`vs ${baseName}`}>
              {changes.length === 0 ? (
                <p className="muted">{problems.length ? "Fix the problems to see the changes." : `No changes from ${baseName} yet.`}</p>
              ) : (
                <ul className={`${styles.changes} diff`} aria-label={`Changes from ${baseName}`}>
                  {changes.map((c) => (
                    <li key={c.path}>
                      <code>{c.path}</code>: <del>{c.before}</del> → <ins>{c.after}</ins>
                    </li>
                  ))}
                </ul>
              )}
            </Panel>
            <Panel id="save" title="Save as new version">
              <SaveVersionForm
                kind="policy"
                save={(meta) => savePolicyVersion({ ...meta, parentId: baseVersion?.id, policy: policy! })}
                blocked={blocked}
                placeholder="e.g. Earlier context notice"
                onSaved={onSaved}
              />
            </Panel>
          </>
        }
      />

      <VersionsPanel kind="policy" query={versions} baseId={baseVersion?.id ?? null} onEditFrom={editFrom}>
        <RunPolicyPicker
          currentRunId={base && "runId" in base ? base.runId : null}
          onPick={(runId, picked) => {
            setBase({ runId, policy: picked });
            setDraft(policyDraftFrom(picked));
          }}
        />
      </VersionsPanel>
    </TuningPage>
  );
}

/** Starts the draft from a recorded run's own policy. */
function RunPolicyPicker({ currentRunId, onPick }: { currentRunId: string | null; onPick: (runId: string, policy: TPolicy) => void }) {
  const queryClient = useQueryClient();
  const runs = useQuery(runsListQuery({}));
  const [error, setError] = useState<string | null>(null);
  return (
    <p className={styles.footnote}>
      <label>
        Or start from a recorded run&apos;s own policy:{" "}
        <select
          aria-label="Start from a run's policy"
          value={currentRunId ?? ""}
          onChange={async (e) => {
            const runId = e.target.value;
            if (!runId) return;
            setError(null);
            try {
              const summary = await queryClient.fetchQuery(runSummaryQuery(runId));
              if (summary.policy) onPick(runId, summary.policy);
              else setError(`run ${runId} has no readable policy`);
            } catch (problem) {
              setError((problem as Error).message);
            }
          }}
        >
          <option value="">choose a run…</option>
          {runs.data?.runs.map((r) => (
            <option key={r.runId} value={r.runId}>
              {r.runId}
            </option>
          ))}
        </select>
      </label>
      {error ? <span className="form-error"> {error}</span> : null}
    </p>
  );
}
