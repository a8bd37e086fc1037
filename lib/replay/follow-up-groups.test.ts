import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { REMINDER_KEYS, type TCopy, type TReminderKey } from "@/lib/contracts";
import { DEFAULT_COPY } from "@/lib/core";
import { followUpGroups, resolvedCopyJson, type RunFollowUp, type SavedCopy } from "./follow-up-groups";

const fingerprint = (json: string) => createHash("sha256").update(json).digest("hex").slice(0, 10);
const fp = (copy: TCopy | undefined) => fingerprint(resolvedCopyJson(copy));

const SHORT: TCopy = { context: { "*": "Ctx {percent}%" } };
const LONG: TCopy = { context: { "*": "Context: very full, choose carefully — {requiredBytes} of {capacityBytes} bytes." } };

/** A run with `delivered`/`followed` for the context key only. */
const run = (copy: TCopy | undefined, delivered = 0, followed = 0): RunFollowUp => ({
  copy,
  byKey: [{ key: "context", delivered, followed }],
});
const version = (id: string, name: string, copy: TCopy, createdAt = "2026-11-01T00:00:00.000Z"): SavedCopy => ({
  id,
  name,
  copy,
  createdAt,
});

type Row = [label: string, copyVersionId: string | null, runs: number];

describe("follow-up per copy", () => {
  it.each<[string, RunFollowUp[], SavedCopy[], Row[]]>([
    ["no runs, no groups", [], [version("v1", "short", SHORT)], []],
    ["runs without copy: the default copy", [run(undefined), run(undefined)], [], [["Default copy", null, 2]]],
    [
      "an empty copy and the default's own text are the default copy too",
      [run({}), run({ context: { ...DEFAULT_COPY.context } }), run(undefined)],
      [],
      [["Default copy", null, 3]],
    ],
    [
      "a saved version with the run's copy names it",
      [run(SHORT)],
      [version("v1", "short", SHORT), version("v2", "long", LONG)],
      [["short", "v1", 1]],
    ],
    [
      "of several versions with that copy the newest names it",
      [run(SHORT)],
      [
        version("v1", "short", SHORT, "2026-11-01T00:00:00.000Z"),
        version("v3", "short again", SHORT, "2026-11-03T00:00:00.000Z"),
        version("v2", "short 2", SHORT, "2026-11-02T00:00:00.000Z"),
      ],
      [["short again", "v3", 1]],
    ],
    [
      "the default keeps its name, noting a saved version equal to it",
      [run(undefined)],
      [version("v0", "baseline copy", {})],
      [["Default copy (saved as “baseline copy”)", "v0", 1]],
    ],
    ["a copy no version has is the run's own", [run(LONG)], [version("v1", "short", SHORT)], [[`Run's own copy · ${fp(LONG)}`, null, 1]]],
    [
      "groups by runs, most first, then by label",
      [run(LONG), run(SHORT), run(undefined), run(SHORT), run(LONG)],
      [version("v1", "short", SHORT)],
      [
        ["Run's own copy · " + fp(LONG), null, 2],
        ["short", "v1", 2],
        ["Default copy", null, 1],
      ],
    ],
  ])("%s", (_, runs, saved, expected) => {
    const groups = followUpGroups(runs, saved, fingerprint);
    expect(groups.map((g) => [g.copy.label, g.copy.copyVersionId, g.copy.runs])).toEqual(expected);
    for (const group of groups) expect(group.keys.map((k) => k.key)).toEqual(REMINDER_KEYS);
  });

  it("fingerprints the resolved copy: sha256 of its canonical JSON, 10 hex digits", () => {
    const [group] = followUpGroups([run(SHORT)], [], fingerprint);
    expect(group.copy.fingerprint).toMatch(/^[0-9a-f]{10}$/);
    expect(group.copy.fingerprint).toBe(fp({ ...SHORT }));
    expect(group.copy.fingerprint).not.toBe(fp(undefined));
  });

  it("sums each group's counts per key, with a Wilson interval; keys without deliveries have no rate", () => {
    const byKey = (counts: Partial<Record<TReminderKey, [number, number]>>) =>
      Object.entries(counts).map(([key, [delivered, followed]]) => ({ key: key as TReminderKey, delivered, followed }));
    const [short, def] = followUpGroups(
      [
        { copy: SHORT, byKey: byKey({ context: [6, 3], review: [2, 0] }) },
        { copy: SHORT, byKey: byKey({ context: [4, 2] }) },
        { copy: undefined, byKey: byKey({ review: [10, 10] }) },
      ],
      [],
      fingerprint,
    );
    expect(short.copy.runs).toBe(2);
    const context = short.keys.find((k) => k.key === "context")!;
    expect(context).toMatchObject({ delivered: 10, followed: 5, rate: 0.5 });
    expect(context.low).toBeCloseTo(0.2366, 4);
    expect(context.high).toBeCloseTo(0.7634, 4);
    expect(short.keys.find((k) => k.key === "review")).toMatchObject({ delivered: 2, followed: 0, rate: 0, low: 0 });
    expect(short.keys.find((k) => k.key === "time")).toEqual({ key: "time", delivered: 0, followed: 0, rate: null, low: null, high: null });
    expect(def.copy.label).toBe("Default copy");
    const review = def.keys.find((k) => k.key === "review")!;
    expect(review).toMatchObject({ delivered: 10, followed: 10, rate: 1 });
    expect(review.low).toBeCloseTo(0.7225, 4);
    expect(review.high).toBeCloseTo(1, 10);
  });
});
