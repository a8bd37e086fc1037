"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TCopyVersion } from "../../lib/contracts";
import type { CopyDraft } from "../../lib/copy/templates";
import { saveCopyVersion, versionKeys } from "../../lib/queries/copy";
import styles from "./copy.module.css";

type Props = {
  draft: CopyDraft;
  parentId: string | null;
  /** Why saving is not possible now (problems in the draft, nothing changed), or null. */
  blocked: string | null;
  onSaved: (version: TCopyVersion) => void;
};

/** Saves the draft as a new, immutable version (saved versions are never edited). */
export function SaveVersionForm({ draft, parentId, blocked, onSaved }: Props) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [makeDefault, setMakeDefault] = useState(false);
  const save = useMutation({
    mutationFn: () => saveCopyVersion({ name, note: note || undefined, parentId: parentId ?? undefined, makeDefault, copy: draft }),
    onSuccess: async (version) => {
      await queryClient.invalidateQueries({ queryKey: versionKeys.copy() });
      setName("");
      setNote("");
      setMakeDefault(false);
      onSaved(version);
    },
  });

  return (
    <form
      className={styles.saveForm}
      aria-label="Save as a new version"
      onSubmit={(e) => {
        e.preventDefault();
        if (!blocked && name.trim()) save.mutate();
      }}
    >
      <label>
        Name
        <input value={name} maxLength={80} required placeholder="e.g. Shorter context notice" onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Note <span className="muted">(optional)</span>
        <textarea value={note} maxLength={500} rows={2} placeholder="Why this wording?" onChange={(e) => setNote(e.target.value)} />
      </label>
      <label className={styles.checkbox}>
        <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} />
        Make it the project default
      </label>
      <div className={styles.saveActions}>
        <button type="submit" className="button" disabled={Boolean(blocked) || !name.trim() || save.isPending}>
          {save.isPending ? "Saving…" : "Save as new version"}
        </button>
        {blocked ? <span className="muted">{blocked}</span> : null}
      </div>
      {save.isError ? (
        <p className="form-error" role="alert">
          Not saved: {save.error.message}
        </p>
      ) : null}
      {save.isSuccess ? (
        <p className={styles.saved} role="status">
          Saved “{save.data.name}”. <Link href={`/copy/replay?copy=${encodeURIComponent(save.data.id)}`}>Replay it over recorded runs →</Link>
        </p>
      ) : null}
    </form>
  );
}
