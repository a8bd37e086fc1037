/** A replay job's versions, as the replay pages name them: `copy “<name>”`, `policy “<name>”` (the id when no name is known). */
export function replayVersionParts(
  job: { copyVersionId: string | null; policyVersionId: string | null },
  nameOf: (id: string) => string | undefined,
): string[] {
  return [
    job.copyVersionId ? `copy “${nameOf(job.copyVersionId) ?? job.copyVersionId}”` : null,
    job.policyVersionId ? `policy “${nameOf(job.policyVersionId) ?? job.policyVersionId}”` : null,
  ].filter((part): part is string => part !== null);
}

/** A replay job's id shortened for a label: its first 8 characters (a generated id starts with its time, so replays started apart differ there). */
export function shortReplayId(id: string): string {
  return id.slice(0, 8);
}

/** B's name in a run's comparison with its what-if (docs/compare.md): `<runId> · what-if (replay <short id>: copy “…” / policy “…”)`. */
export function whatIfLabel(runId: string, jobId: string, versions: readonly string[]): string {
  return `${runId} · what-if (replay ${shortReplayId(jobId)}${versions.length ? `: ${versions.join(" / ")}` : ""})`;
}
