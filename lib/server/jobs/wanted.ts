/**
 * How reads ask for a rebuild without depending on the job queue: a read that finds a run's
 * stored rebuild stale (or missing) calls `wantRebuild`, and the process's background work
 * (lib/server/background/background.ts), once started, is what listens. Without a listener (scripts,
 * tests) nothing happens: the runs are rebuilt by whoever settles them.
 */
type Listener = (projectId: string, runPks: readonly string[]) => void;

const globalForJobs = globalThis as unknown as { cuescopeRebuildWanted?: Listener };

export function onRebuildWanted(listener: Listener | undefined): void {
  globalForJobs.cuescopeRebuildWanted = listener;
}

export function wantRebuild(projectId: string, runPks: readonly string[]): void {
  if (runPks.length > 0) globalForJobs.cuescopeRebuildWanted?.(projectId, runPks);
}
