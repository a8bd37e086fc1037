import { ZCopy } from "@/lib/contracts";
import type { CopyDraft } from "./templates";

/** Where a copy problem belongs in the editor: a key, and a template of it when there is one. */
export interface CopyProblem {
  key: string;
  template: string | null;
  message: string;
}

/**
 * The copy contract's verdict on a draft (the same schema the API applies when a version is saved),
 * as problems placed next to the template they are about.
 */
export function copyProblems(draft: CopyDraft): CopyProblem[] {
  const parsed = ZCopy.safeParse(draft);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({
    key: String(issue.path[0] ?? ""),
    template: issue.path.length > 1 ? String(issue.path[1]) : null,
    message: issue.message,
  }));
}

/** The problems of one template (or, with template null, of the key as a whole). */
export function problemsAt(problems: readonly CopyProblem[], key: string, template: string | null): string[] {
  // One line per distinct problem (a template naming the same unknown placeholder twice has it once).
  return [...new Set(problems.filter((p) => p.key === key && p.template === template).map((p) => p.message))];
}
