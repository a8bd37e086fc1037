import type { z } from "zod";

/** One validation problem, named by its dotted JSON path (empty for the value itself). */
export interface TProblem {
  path: string;
  message: string;
}

export function dottedPath(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join(".");
}

/** Turns zod issues into path + reason problems with messages a person can act on. */
export function problemsFrom(error: z.core.$ZodError, prefix: readonly PropertyKey[] = []): TProblem[] {
  return error.issues.map((issue) => ({
    path: dottedPath([...prefix, ...issue.path]),
    message: plainMessage(issue),
  }));
}

function plainMessage(issue: z.core.$ZodIssue): string {
  const generic = /^Invalid input: expected (\w+), received (\w+)$/.exec(issue.message);
  if (generic) {
    return generic[2] === "undefined" ? `required, expected ${generic[1]}` : `expected ${generic[1]}, got ${generic[2]}`;
  }
  return issue.message;
}
