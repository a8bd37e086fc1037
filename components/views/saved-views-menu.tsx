"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TSavedView, TSavedViewPage } from "@/lib/contracts";
import { createSavedView, deleteSavedView, savedViewsQuery, updateSavedView, viewKeys } from "@/lib/queries/views";
import { Popover } from "@/components/ui/popover";
import styles from "./saved-views.module.css";

type Props = {
  page: TSavedViewPage;
  /** The page's current URL query (filters and sort, no cursor), saved as it is. */
  query: string;
  /** The page's URL for a saved query. */
  hrefOf: (query: string) => string;
};

/**
 * The "Views" menu of a list page: the project's saved views of this page (each a link that applies
 * it, with Rename and Delete), and a form that saves the current filters and sort under a name.
 */
export function SavedViewsMenu({ page, query, hrefOf }: Props) {
  return (
    <Popover label="Views" align="end">
      {(close, open) => <ViewsPanel page={page} query={query} hrefOf={hrefOf} close={close} open={open} />}
    </Popover>
  );
}

function ViewsPanel({ page, query, hrefOf, close, open }: Props & { close: () => void; open: boolean }) {
  const client = useQueryClient();
  // Read once the menu is first opened: the list page's own reads all come from its prefetch.
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  const views = useQuery({ ...savedViewsQuery(page), enabled: wanted });
  const [name, setName] = useState("");
  const refresh = () => client.invalidateQueries({ queryKey: viewKeys.page(page) });
  const save = useMutation({
    mutationFn: () => createSavedView({ page, name, query }),
    onSuccess: () => {
      setName("");
      return refresh();
    },
  });
  const current = views.data?.views.find((v) => v.query === query);

  return (
    <div className={styles.panel}>
      <h2 className={styles.heading}>Saved views</h2>
      {views.isError ? <p role="alert">The views could not be loaded: {views.error.message}</p> : null}
      {views.data && views.data.views.length === 0 ? <p className={styles.muted}>No saved views yet.</p> : null}
      {views.data && views.data.views.length > 0 ? (
        <ul className={styles.list} aria-label="Saved views">
          {views.data.views.map((view) => (
            <ViewItem
              key={view.id}
              view={view}
              href={hrefOf(view.query)}
              current={view.id === current?.id}
              onChanged={refresh}
              onApply={close}
            />
          ))}
        </ul>
      ) : null}
      <form
        className={styles.save}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label className={styles.label}>
          Save these filters and sort as
          <input
            className={styles.input}
            value={name}
            maxLength={80}
            required
            onChange={(e) => setName(e.target.value)}
            placeholder="View name"
          />
        </label>
        <button type="submit" className={styles.button} disabled={save.isPending || name.trim() === ""}>
          Save view
        </button>
        {save.isError ? (
          <p role="alert" className={styles.error}>
            {save.error.message}
          </p>
        ) : null}
      </form>
    </div>
  );
}

function ViewItem({
  view,
  href,
  current,
  onChanged,
  onApply,
}: {
  view: TSavedView;
  href: string;
  current: boolean;
  onChanged: () => Promise<void>;
  onApply: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(view.name);
  const rename = useMutation({
    mutationFn: () => updateSavedView(view.id, { name }),
    onSuccess: async () => {
      setRenaming(false);
      await onChanged();
    },
  });
  const remove = useMutation({ mutationFn: () => deleteSavedView(view.id), onSuccess: onChanged });

  if (renaming) {
    return (
      <li className={styles.item}>
        <form
          className={styles.rename}
          onSubmit={(e) => {
            e.preventDefault();
            rename.mutate();
          }}
        >
          <label className="sr-only" htmlFor={`rename-${view.id}`}>
            New name for {view.name}
          </label>
          <input
            id={`rename-${view.id}`}
            className={styles.input}
            value={name}
            maxLength={80}
            required
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className={styles.button} disabled={rename.isPending}>
            Save name
          </button>
          <button type="button" className={styles.linkButton} onClick={() => setRenaming(false)}>
            Cancel
          </button>
          {rename.isError ? (
            <p role="alert" className={styles.error}>
              {rename.error.message}
            </p>
          ) : null}
        </form>
      </li>
    );
  }
  return (
    <li className={styles.item}>
      <Link
        href={href}
        className={styles.apply}
        aria-current={current ? "page" : undefined}
        onClick={onApply}
        title={view.query || "no filters"}
      >
        {view.name}
      </Link>
      <button type="button" className={styles.linkButton} onClick={() => setRenaming(true)} aria-label={`Rename ${view.name}`}>
        Rename
      </button>
      <button
        type="button"
        className={styles.linkButton}
        onClick={() => remove.mutate()}
        disabled={remove.isPending}
        aria-label={`Delete ${view.name}`}
      >
        Delete
      </button>
      {remove.isError ? (
        <p role="alert" className={styles.error}>
          {remove.error.message}
        </p>
      ) : null}
    </li>
  );
}
