import { REMINDER_KEYS, type TCopy, type TFollowUpGroup, type TReminderKey } from "@/lib/contracts";
import { canonicalJson, compareCodePoints, resolveCopy } from "@/lib/core";
import { wilsonInterval } from "@/lib/stats/wilson";

/** One recorded run's §8 follow-up counts and the copy its decisions were rendered with. */
export interface RunFollowUp {
  /** The run's own copy (run.started's `copy`); absent means the default copy. */
  copy: TCopy | null | undefined;
  byKey: readonly { key: TReminderKey; delivered: number; followed: number }[];
}

/** A saved copy version of the project, for naming the copy a group of runs used. */
export interface SavedCopy {
  id: string;
  name: string;
  /** RFC 3339; of several versions with the same resolved copy the newest names the group. */
  createdAt: string;
  copy: TCopy;
}

export const DEFAULT_COPY_LABEL = "Default copy";

/** The identity of a copy as rendered: canonical JSON of the copy resolved over the default. */
export function resolvedCopyJson(copy: TCopy | null | undefined): string {
  return canonicalJson(resolveCopy(copy ?? undefined));
}

/**
 * Contract §8 follow-up per copy and per key: the runs grouped by the copy their decisions were
 * rendered with: "Default copy" for the default (noting a saved version equal to it), else the
 * newest saved version with that copy, else "Run's own copy · <fingerprint>". `fingerprint` maps the
 * resolved copy's canonical JSON to a short stable id (the server uses a sha256 prefix). Groups
 * by runs, most first, then by label; every group lists all five keys.
 */
export function followUpGroups(
  runs: Iterable<RunFollowUp>,
  saved: readonly SavedCopy[],
  fingerprint: (resolvedJson: string) => string,
): TFollowUpGroup[] {
  const groups = new Map<string, { runs: number; totals: Map<TReminderKey, { delivered: number; followed: number }> }>();
  for (const run of runs) {
    const id = resolvedCopyJson(run.copy);
    let group = groups.get(id);
    if (!group) {
      group = { runs: 0, totals: new Map(REMINDER_KEYS.map((key) => [key, { delivered: 0, followed: 0 }])) };
      groups.set(id, group);
    }
    group.runs++;
    for (const stat of run.byKey) {
      const total = group.totals.get(stat.key)!;
      total.delivered += stat.delivered;
      total.followed += stat.followed;
    }
  }

  const newestSaved = new Map<string, SavedCopy>();
  for (const version of saved) {
    const id = resolvedCopyJson(version.copy);
    const known = newestSaved.get(id);
    if (
      !known ||
      version.createdAt > known.createdAt ||
      (version.createdAt === known.createdAt && compareCodePoints(version.id, known.id) > 0)
    ) {
      newestSaved.set(id, version);
    }
  }
  const defaultJson = resolvedCopyJson(undefined);

  return [...groups]
    .map(([id, group]): TFollowUpGroup => {
      const print = fingerprint(id);
      const version = newestSaved.get(id);
      // The default copy keeps its name (a saved version equal to it is mentioned, not put in its place).
      const label =
        id === defaultJson
          ? version
            ? `${DEFAULT_COPY_LABEL} (saved as “${version.name}”)`
            : DEFAULT_COPY_LABEL
          : version
            ? version.name
            : `Run's own copy · ${print}`;
      return {
        copy: { fingerprint: print, label, copyVersionId: version?.id ?? null, runs: group.runs },
        keys: REMINDER_KEYS.map((key) => {
          const { delivered, followed } = group.totals.get(key)!;
          const interval = wilsonInterval(followed, delivered);
          return {
            key,
            delivered,
            followed,
            rate: delivered ? followed / delivered : null,
            low: interval?.low ?? null,
            high: interval?.high ?? null,
          };
        }),
      };
    })
    .sort(
      (a, b) =>
        b.copy.runs - a.copy.runs ||
        compareCodePoints(a.copy.label, b.copy.label) ||
        compareCodePoints(a.copy.fingerprint, b.copy.fingerprint),
    );
}
