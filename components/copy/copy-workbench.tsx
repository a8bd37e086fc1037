"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { REMINDER_KEYS, type TCopyVersion } from "@/lib/contracts";
import { DEFAULT_COPY } from "@/lib/core";
import { diffCopies } from "@/lib/copy/diff";
import { refitTurn } from "@/lib/copy/preview";
import { draftFrom, SPEC_COPY_PARAM, withTemplate, withoutTemplate, type CopyDraft } from "@/lib/copy/templates";
import { copyProblems } from "@/lib/copy/validate";
import { draftKey, isStringRecords } from "@/lib/copy/kept-drafts";
import { KeptDraftNotice } from "@/components/versions/kept-draft-notice";
import { useKeptDraft } from "@/components/versions/use-kept-draft";
import { copyVersionsQuery, saveCopyVersion } from "@/lib/queries/copy";
import { Panel } from "@/components/ui/panel";
import { EditorColumns, TuningPage } from "@/components/ui/tuning-page";
import { CopyDiff } from "./copy-diff";
import { KeyTemplates } from "./key-templates";
import { EffectPanel } from "./effect-panel";
import { PreviewTurnPanel } from "./preview-turn-panel";
import { SaveVersionForm } from "@/components/versions/save-version-form";
import { usePreviewTurn, type PreviewTarget } from "./use-preview-turn";
import { VersionsPanel } from "@/components/versions/version-list";
import { formatCount } from "@/lib/format";

const isCopyDraft = isStringRecords(REMINDER_KEYS) as (value: unknown) => value is CopyDraft;

type Props = {
  project: string;
  /** The version the editor starts from (null: the built-in default copy, contract §5). */
  initialBaseId: string | null;
  initialPreview: PreviewTarget;
};

/**
 * The copy editor: every template of every key, checked by the copy contract as it is typed,
 * rendered live on a recorded turn (text, bytes, fit), compared with the version it came from,
 * and saved as a new immutable version.
 */
export function CopyWorkbench({ project, initialBaseId, initialPreview }: Props) {
  const versions = useQuery(copyVersionsQuery());
  const list = versions.data?.versions ?? [];
  const [baseId, setBaseId] = useState(initialBaseId);
  const base = baseId === null ? null : (list.find((v) => v.id === baseId) ?? null);
  const baseCopy = useMemo(() => draftFrom(base?.copy ?? DEFAULT_COPY), [base]);
  const [draft, setDraft] = useState<CopyDraft>(baseCopy);
  const preview = usePreviewTurn(initialPreview);

  useEffect(() => {
    const url = new URL(window.location.href);
    // `from=spec` names the built-in default copy explicitly (no `from` means the project default).
    url.searchParams.set("from", baseId ?? SPEC_COPY_PARAM);
    if (url.href !== window.location.href) window.history.replaceState(null, "", url);
  }, [baseId]);

  const editFrom = (id: string | null) => {
    setBaseId(id);
    setDraft(draftFrom(id === null ? DEFAULT_COPY : list.find((v) => v.id === id)?.copy));
  };
  const onSaved = (version: TCopyVersion) => {
    kept.forget();
    setBaseId(version.id);
    setDraft(draftFrom(version.copy));
  };

  const problems = useMemo(() => copyProblems(draft), [draft]);
  const changes = useMemo(() => diffCopies(baseCopy, draft), [baseCopy, draft]);
  // Unsaved edits are kept in this browser per project and version, and leaving asks first.
  const kept = useKeptDraft({
    storageKey: draftKey("copy", project, baseId),
    draft,
    dirty: changes.length > 0,
    isDraft: isCopyDraft,
    restore: setDraft,
  });
  const parentName = base ? `“${base.name}”` : "the built-in default copy";
  const blocked = problems.length
    ? `Fix ${problems.length === 1 ? "the problem" : `the ${problems.length} problems`} above first.`
    : changes.length === 0
      ? `Nothing changed from ${parentName}.`
      : null;
  const decision = preview.detail.data?.decision ?? null;
  const policy = preview.summary.data?.policy ?? null;
  // R8's order is judged only for a valid draft: an invalid template has no fit to claim.
  const refit = useMemo(() => (decision && problems.length === 0 ? refitTurn(decision, draft) : null), [decision, draft, problems]);

  const lead = (
    <>
      Editing from {parentName}. Saved versions never change; saving makes a new one. Previews use the rebuild&apos;s own rendering on a
      recorded turn.
    </>
  );
  if (baseId !== null && versions.isSuccess && !base) {
    return (
      <TuningPage project={project} title="Reminder copy" lead="" current="/copy">
        <p className="form-error">
          No copy version {JSON.stringify(baseId)} in {project}.
        </p>
        <p>
          <button type="button" className="button" onClick={() => editFrom(null)}>
            Start from the built-in default copy
          </button>
        </p>
      </TuningPage>
    );
  }

  return (
    <TuningPage project={project} title="Reminder copy" lead={lead} current="/copy">
      <KeptDraftNotice kept={kept} onReset={() => setDraft(baseCopy)} />
      <EditorColumns
        editor={
          <Panel id="templates" title="Templates" meta={problems.length ? formatCount(problems.length, "problem") : "valid"}>
            {REMINDER_KEYS.map((key) => (
              <KeyTemplates
                key={key}
                reminderKey={key}
                templates={draft[key]}
                baseTemplates={baseCopy[key]}
                turn={decision}
                policy={policy}
                problems={problems}
                refit={refit}
                onChange={(name, text) => setDraft((d) => withTemplate(d, key, name, text))}
                onAdd={(name) => setDraft((d) => withTemplate(d, key, name, d[key]["*"] ?? ""))}
                onRemove={(name) => setDraft((d) => withoutTemplate(d, key, name))}
              />
            ))}
          </Panel>
        }
        side={
          <>
            <PreviewTurnPanel preview={preview} draft={draft} problems={problems.length} />
            <Panel id="changes" title="Changes" meta={`vs ${base ? base.name : "built-in default"}`}>
              <CopyDiff changes={changes} parentName={parentName} />
            </Panel>
            <Panel id="save" title="Save as new version">
              <SaveVersionForm
                kind="copy"
                save={(meta) => saveCopyVersion({ ...meta, parentId: baseId ?? undefined, copy: draft })}
                blocked={blocked}
                placeholder="e.g. Shorter context notice"
                onSaved={onSaved}
              />
            </Panel>
          </>
        }
      />

      <EffectPanel />

      <VersionsPanel
        kind="copy"
        query={versions}
        baseId={baseId}
        builtIn={{ label: "Built-in default copy", note: "What runs without copy get (contract §5)." }}
        onEditFrom={editFrom}
      />
    </TuningPage>
  );
}
