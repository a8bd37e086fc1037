"use client";

import { useRouter } from "next/navigation";
import { useCallback, useOptimistic, useTransition } from "react";
import { applyViewChanges, runListHref, type RunListView } from "@/lib/queries/run-list-url";

/**
 * Moves the runs list to another view by changing the URL (filters live there: shareable, and the
 * server prefetches the new page). The controls show the new view at once (optimistically) while
 * the page is on its way; `replace` is for typing, so history keeps whole searches only.
 */
export function useRunsNavigation(serverView: RunListView) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [view, setView] = useOptimistic(serverView);
  const navigate = useCallback(
    (changes: Partial<RunListView>, options: { replace?: boolean } = {}) => {
      const next = applyViewChanges(view, changes);
      const href = runListHref(next);
      startTransition(() => {
        setView(next);
        if (options.replace) router.replace(href, { scroll: false });
        else router.push(href, { scroll: false });
      });
    },
    [router, view, setView],
  );
  return { view, navigate, pending };
}
