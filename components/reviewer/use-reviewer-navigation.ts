"use client";

import { useRouter } from "next/navigation";
import { useCallback, useOptimistic, useTransition } from "react";
import { applyReviewerChanges, reviewerHref, type ReviewerView } from "@/lib/queries/reviewer-url";

/**
 * Moves the audit to another view by changing the URL (filters live there: shareable, and the
 * server prefetches the new page). Controls show the new view at once while the page is on its way.
 */
export function useReviewerNavigation(serverView: ReviewerView) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [view, setView] = useOptimistic(serverView);
  const navigate = useCallback(
    (changes: Partial<ReviewerView>) => {
      const next = applyReviewerChanges(view, changes);
      startTransition(() => {
        setView(next);
        router.push(reviewerHref(next), { scroll: false });
      });
    },
    [router, view, setView],
  );
  return { view, navigate, pending };
}
