/**
 * Drafts of the copy and policy editors kept in the browser (localStorage), one per project, editor
 * and version edited from, so unsaved edits survive a reload, a closed tab or a link followed.
 * Pure: the storage is passed in.
 */

/** What the editors keep: the draft as typed and when it was last changed. */
export interface KeptDraft<D> {
  savedAt: string;
  draft: D;
}

/** The few Storage methods used (window.localStorage in the browser). */
export type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The storage key of one editor's draft: per project, editor and the version (or run) it was edited from. */
export function draftKey(kind: "copy" | "policy", project: string, base: string | null): string {
  return `cuescope:draft:${kind}:${project}:${base ?? "built-in"}`;
}

/** The kept draft, or null when there is none or it does not read (then it is forgotten). `isDraft` checks its shape. */
export function readDraft<D>(storage: DraftStorage, key: string, isDraft: (value: unknown) => value is D): KeptDraft<D> | null {
  let text: string | null;
  try {
    text = storage.getItem(key);
  } catch {
    return null; // storage switched off
  }
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<KeptDraft<unknown>>;
    if (typeof value.savedAt === "string" && isDraft(value.draft)) return { savedAt: value.savedAt, draft: value.draft };
  } catch {
    // not JSON: forgotten below
  }
  forgetDraft(storage, key);
  return null;
}

/** Keeps a draft (a full storage or storage switched off loses it quietly: the editor still works). */
export function keepDraft<D>(storage: DraftStorage, key: string, draft: D, now: Date): void {
  try {
    storage.setItem(key, JSON.stringify({ savedAt: now.toISOString(), draft } satisfies KeptDraft<D>));
  } catch {
    // quota or privacy mode
  }
}

export function forgetDraft(storage: DraftStorage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // storage switched off
  }
}

/** A record of strings per key, for every key named (a copy draft: templates per reminder key). */
export function isStringRecords(keys: readonly string[]) {
  return (value: unknown): value is Record<string, Record<string, string>> =>
    typeof value === "object" &&
    value !== null &&
    keys.every((k) => {
      const inner = (value as Record<string, unknown>)[k];
      return typeof inner === "object" && inner !== null && Object.values(inner).every((v) => typeof v === "string");
    });
}

/** A policy draft's shape: every section with `on` and string values. */
export function isSectionDrafts(sections: readonly string[]) {
  return (value: unknown): value is Record<string, { on: boolean; values: Record<string, string> }> =>
    typeof value === "object" &&
    value !== null &&
    sections.every((s) => {
      const section = (value as Record<string, { on?: unknown; values?: unknown }>)[s];
      return (
        typeof section === "object" &&
        section !== null &&
        typeof section.on === "boolean" &&
        typeof section.values === "object" &&
        section.values !== null &&
        Object.values(section.values).every((v) => typeof v === "string")
      );
    });
}

/**
 * Whether a click on a link should ask before leaving an editor with unsaved edits: a plain
 * left click on a same-origin link to another page (not a new tab, not a download, not an anchor
 * on this page).
 */
export function leavesPage(
  click: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean },
  link: { href: string; target: string; download: boolean },
  here: string,
): boolean {
  if (click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return false;
  if ((link.target && link.target !== "_self") || link.download) return false;
  let to: URL;
  let from: URL;
  try {
    to = new URL(link.href, here);
    from = new URL(here);
  } catch {
    return false;
  }
  if (to.origin !== from.origin) return false;
  return to.pathname !== from.pathname || to.search !== from.search;
}
