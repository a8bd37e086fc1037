"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TVersionKind } from "@/lib/contracts";
import { versionKeys } from "@/lib/queries/copy";
import styles from "./versions.module.css";

export interface VersionMeta {
  name: string;
  note?: string;
  makeDefault: boolean;
}

type Props<V extends { id: string; name: string }> = {
  kind: TVersionKind;
  /** Sends the draft with this name and note; answers the saved version. */
  save: (meta: VersionMeta) => Promise<V>;
  /** Why saving is not possible now (problems in the draft, nothing changed), or null. */
  blocked: string | null;
  placeholder: string;
  onSaved: (version: V) => void;
};

/** Saves a draft as a new, immutable version (saved versions are never edited). */
export function SaveVersionForm<V extends { id: string; name: string }>({ kind, save, blocked, placeholder, onSaved }: Props<V>) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [makeDefault, setMakeDefault] = useState(false);
  const mutation = useMutation({
    mutationFn: () => save({ name, note: note || undefined, makeDefault }),
    onSuccess: async (version) => {
      await queryClient.invalidateQueries({ queryKey: versionKeys.of(kind) });
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
        if (!blocked && name.trim()) mutation.mutate();
      }}
    >
      <label>
        Name
        <input value={name} maxLength={80} required placeholder={placeholder} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Note <span className="muted">(optional)</span>
        <textarea value={note} maxLength={500} rows={2} placeholder="Why this change?" onChange={(e) => setNote(e.target.value)} />
      </label>
      <label className={styles.checkbox}>
        <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} />
        Make it the project default
      </label>
      <div className={styles.saveActions}>
        <button type="submit" className="button" disabled={Boolean(blocked) || !name.trim() || mutation.isPending}>
          {mutation.isPending ? "Saving…" : "Save as new version"}
        </button>
        {blocked ? <span className="muted">{blocked}</span> : null}
      </div>
      {mutation.isError ? (
        <p className="form-error" role="alert">
          Not saved: {mutation.error.message}
        </p>
      ) : null}
      {mutation.isSuccess ? (
        <p className={styles.saved} role="status">
          Saved “{mutation.data.name}”.{" "}
          <Link href={`/copy/replay?${kind}=${encodeURIComponent(mutation.data.id)}`}>Replay it over recorded runs →</Link>
        </p>
      ) : null}
    </form>
  );
}
