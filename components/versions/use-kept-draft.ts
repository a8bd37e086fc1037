"use client";

import { useCallback, useEffect, useState } from "react";
import { forgetDraft, keepDraft, leavesPage, readDraft } from "@/lib/copy/kept-drafts";
import { useHydrated } from "@/components/ui/use-hydrated";

/** The question asked before leaving an editor with unsaved edits. */
export const LEAVE_QUESTION = "Leave with unsaved edits? The draft stays in this browser and comes back when you open the editor again.";

/**
 * An editor's draft kept in this browser (localStorage, under `storageKey`: per project, editor and
 * the version edited from) while it differs from what it was edited from (`dirty`); brought back
 * on the next visit with a notice (`restoredAt`), and forgotten when saved or discarded. While
 * dirty, leaving asks first: closing or reloading the tab (beforeunload) and following a link
 * inside the app.
 */
export function useKeptDraft<D>({
  storageKey,
  draft,
  dirty,
  isDraft,
  restore,
}: {
  storageKey: string;
  draft: D;
  dirty: boolean;
  isDraft: (value: unknown) => value is D;
  /** Puts a kept draft back into the editor. */
  restore: (draft: D) => void;
}) {
  const hydrated = useHydrated();
  const [restoredAt, setRestoredAt] = useState<string | null>(null);
  // The key whose kept draft was read: nothing is written for a key before its kept draft is read.
  const [readKey, setReadKey] = useState<string | null>(null);
  // Read once hydrated (the server has no localStorage) and again when the key changes (another
  // version edited from): state adjusted while rendering, so the restored draft is the next render's.
  if (hydrated && readKey !== storageKey) {
    setReadKey(storageKey);
    const kept = readDraft(window.localStorage, storageKey, isDraft);
    setRestoredAt(kept?.savedAt ?? null);
    if (kept) restore(kept.draft);
  }

  useEffect(() => {
    if (readKey !== storageKey) return;
    if (dirty) keepDraft(window.localStorage, storageKey, draft, new Date());
    else forgetDraft(window.localStorage, storageKey);
  }, [readKey, storageKey, draft, dirty]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = ""; // older browsers need it set to ask
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!link || event.defaultPrevented) return;
      const leaves = leavesPage(
        event,
        { href: link.href, target: link.target, download: link.hasAttribute("download") },
        window.location.href,
      );
      if (leaves && !window.confirm(LEAVE_QUESTION)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    // Capture, on the document: before Next's Link handles the click at React's root.
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);

  /** Forgets the kept draft (after saving, or when the user discards it). */
  const forget = useCallback(() => {
    forgetDraft(window.localStorage, storageKey);
    setRestoredAt(null);
  }, [storageKey]);

  return { restoredAt, forget, dismissNotice: () => setRestoredAt(null) };
}

/** What useKeptDraft gives an editor. */
export type KeptDraft = ReturnType<typeof useKeptDraft>;
