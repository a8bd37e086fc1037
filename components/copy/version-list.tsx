"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import type { TCopyVersion } from "../../lib/contracts";
import { formatInstant } from "../../lib/format";
import { makeDefaultVersion, versionKeys } from "../../lib/queries/copy";
import styles from "./copy.module.css";

type Props = {
  versions: readonly TCopyVersion[];
  /** The version the draft was taken from (null: SPEC's default copy). */
  baseId: string | null;
  onEditFrom: (id: string | null) => void;
};

/** Saved copy versions, newest first: which is the project default, who saved it, and where to go from it. */
export function VersionList({ versions, baseId, onEditFrom }: Props) {
  const queryClient = useQueryClient();
  const makeDefault = useMutation({
    mutationFn: (id: string) => makeDefaultVersion("copy", id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionKeys.copy() }),
  });
  const names = new Map(versions.map((v) => [v.id, v.name]));
  return (
    <div className="table-wrap">
      <table className="data-table" aria-label="Copy versions">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Saved</th>
            <th scope="col">From</th>
            <th scope="col">Note</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <tr aria-current={baseId === null ? "true" : undefined}>
            <th scope="row">
              SPEC default copy {versions.some((v) => v.isDefault) ? null : <span className="badge badge-accent">project default</span>}
            </th>
            <td className="muted">built in</td>
            <td />
            <td className="muted">What runs without copy get (SPEC §5).</td>
            <td className={styles.rowActions}>
              <button type="button" className={styles.linkButton} onClick={() => onEditFrom(null)} disabled={baseId === null}>
                {baseId === null ? "Editing" : "Edit from this"}
              </button>
            </td>
          </tr>
          {versions.map((v) => (
            <tr key={v.id} aria-current={baseId === v.id ? "true" : undefined} data-version={v.name}>
              <th scope="row">
                {v.name} {v.isDefault ? <span className="badge badge-accent">project default</span> : null}
              </th>
              <td>
                {formatInstant(v.createdAt)} <span className="muted">by {v.savedBy}</span>
              </td>
              <td className="muted">{v.parentId ? (names.get(v.parentId) ?? "an earlier version") : "SPEC default"}</td>
              <td>{v.note ?? ""}</td>
              <td className={styles.rowActions}>
                <button type="button" className={styles.linkButton} onClick={() => onEditFrom(v.id)} disabled={baseId === v.id}>
                  {baseId === v.id ? "Editing" : "Edit from this"}
                </button>
                {v.isDefault ? null : (
                  <button type="button" className={styles.linkButton} onClick={() => makeDefault.mutate(v.id)} disabled={makeDefault.isPending}>
                    Make default
                  </button>
                )}
                <Link href={`/copy/replay?copy=${encodeURIComponent(v.id)}`}>Replay</Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {makeDefault.isError ? <p className="form-error">{makeDefault.error.message}</p> : null}
    </div>
  );
}
