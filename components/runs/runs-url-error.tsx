import type { TProblem } from "@/lib/contracts";
import { runListHref, type RunListView } from "@/lib/queries/run-list-url";
import { UrlProblems, withoutProblems } from "@/components/filters/url-problems";

/** The runs list's URL holds values it cannot use. */
export function RunsUrlError({ problems, view }: { problems: TProblem[]; view: RunListView }) {
  return (
    <UrlProblems
      title="Runs"
      what="the runs list"
      problems={problems}
      withoutBadHref={runListHref(view, withoutProblems<RunListView>(problems))}
      resetHref="/runs"
      resetLabel="Show all runs"
    />
  );
}
