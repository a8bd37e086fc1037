import type { TProblem } from "@/lib/contracts";
import { reviewerHref, type ReviewerView } from "@/lib/queries/reviewer-url";
import { UrlProblems, withoutProblems } from "@/components/filters/url-problems";

/** The Reviewer audit's URL holds values it cannot use. */
export function ReviewerUrlError({ problems, view }: { problems: TProblem[]; view: ReviewerView }) {
  return (
    <UrlProblems
      title="Reviewer audit"
      what="the Reviewer audit"
      problems={problems}
      withoutBadHref={reviewerHref(view, withoutProblems<ReviewerView>(problems))}
      resetHref="/reviewer"
      resetLabel="Show every candidate"
    />
  );
}
