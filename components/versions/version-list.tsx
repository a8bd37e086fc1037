"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { Panel } from "@/components/ui/panel";
import type { TVersionInfo, TVersionKind } from "@/lib/contracts";
import { useFormatInstant } from "@/components/layout/time-zone";
import { makeDefaultVersion, versionKeys } from "@/lib/queries/copy";
import styles from "./versions.module.css";
import { ScrollRegion } from "@/components/ui/scroll-region";

const TABLE_LABEL: Record<TVersionKind, string> = { copy: "Copy versions", policy: "Policy versions" };

type Props = {
  kind: TVersionKind;
  versions: readonly TVersionInfo[];
  /** The version the draft was taken from (null: the built-in starting point). */
  baseId: string | null;
  /** The starting point that is not a saved version (the built-in default copy), if any. */
  builtIn?: { label: string; note: string };
  onEditFrom: (id: string | null) => void;
};

/**
 * The editors' "Versions" panel: the saved versions once loaded (with their count), the reason
 * when they could not be, and whatever else the editor offers to start from.
 */
export function VersionsPanel({
  query,
  children,
  ...list
}: Omit<Props, "versions"> & {
  query: { isSuccess: boolean; isError: boolean; error: Error | null; data?: { versions: readonly TVersionInfo[] } };
  children?: ReactNode;
}) {
  const versions = query.data?.versions ?? [];
  return (
    <Panel id="versions" title="Versions" meta={query.isSuccess ? `${versions.length} saved` : undefined}>
      {query.isError ? <p className="form-error">{query.error?.message}</p> : <VersionList {...list} versions={versions} />}
      {children}
    </Panel>
  );
}

/** Saved versions, newest first: which is the project default, who saved it, and where to go from it. */
export function VersionList({ kind, versions, baseId, builtIn, onEditFrom }: Props) {
  const formatInstant = useFormatInstant();
  const queryClient = useQueryClient();
  const makeDefault = useMutation({
    mutationFn: (id: string) => makeDefaultVersion(kind, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionKeys.of(kind) }),
  });
  const names = new Map(versions.map((v) => [v.id, v.name]));
  const defaultBadge = <span className="badge badge-accent">project default</span>;
  return (
    <ScrollRegion label={TABLE_LABEL[kind]}>
      <table className="data-table" aria-label={TABLE_LABEL[kind]}>
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
          {builtIn ? (
            <tr aria-current={baseId === null ? "true" : undefined}>
              <th scope="row">
                {builtIn.label} {versions.some((v) => v.isDefault) ? null : defaultBadge}
              </th>
              <td className="muted">built in</td>
              <td />
              <td className="muted">{builtIn.note}</td>
              <td className={styles.rowActions}>
                <button type="button" className="link-button" onClick={() => onEditFrom(null)} disabled={baseId === null}>
                  {baseId === null ? "Editing" : "Edit from this"}
                </button>
              </td>
            </tr>
          ) : null}
          {versions.length === 0 && !builtIn ? (
            <tr>
              <td colSpan={5} className="muted">
                No saved versions yet.
              </td>
            </tr>
          ) : null}
          {versions.map((v) => (
            <tr key={v.id} aria-current={baseId === v.id ? "true" : undefined} data-version={v.name}>
              <th scope="row">
                {v.name} {v.isDefault ? defaultBadge : null}
              </th>
              <td>
                {formatInstant(v.createdAt)} <span className="muted">by {v.savedBy}</span>
              </td>
              <td className="muted">
                {v.parentId ? (names.get(v.parentId) ?? "an earlier version") : (builtIn?.label ?? "a run's policy")}
              </td>
              <td>{v.note ?? ""}</td>
              <td className={styles.rowActions}>
                <button type="button" className="link-button" onClick={() => onEditFrom(v.id)} disabled={baseId === v.id}>
                  {baseId === v.id ? "Editing" : "Edit from this"}
                </button>
                {v.isDefault ? null : (
                  <button type="button" className="link-button" onClick={() => makeDefault.mutate(v.id)} disabled={makeDefault.isPending}>
                    Make default
                  </button>
                )}
                <Link href={`/copy/replay?${kind}=${encodeURIComponent(v.id)}`}>Replay</Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {makeDefault.isError ? <p className="form-error">{makeDefault.error.message}</p> : null}
    </ScrollRegion>
  );
}
