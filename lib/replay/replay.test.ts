import { describe, expect, it } from "vitest";
import { ZEvent, type TCopy } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { changedTurns, turnsToList, type ChangedTurn } from "./changed-turns";
import type { TReminderDecision, TRunDecisions } from "@/lib/contracts";
import { keyStatsOf } from "./key-stats";

const events = generateEtfRun({ runId: "replayed", seed: 31, turns: 400 }).events.map((e) => ZEvent.parse(e));
const started = events.find((e) => e.type === "run.started")!;

describe("what-if replay", () => {
  it("with the run's own copy and policy equals the stored rebuild exactly", () => {
    const own = started.type === "run.started" ? started.body : undefined;
    expect(rebuild(events, { copy: own?.copy, policy: own?.policy })).toEqual(rebuild(events));
    expect(changedTurns(rebuild(events), rebuild(events))).toEqual([]);
  });

  it("longer copy on a tight run drops more and changes turns; shorter copy drops fewer", () => {
    // Make the run tight: capacity just above its largest request, so a few hundred bytes are free at the peaks.
    const policy = started.type === "run.started" ? started.body.policy : {};
    const largest = Math.max(...events.flatMap((e) => (e.type === "request.final" ? [e.body.requiredBytes] : [])));
    const tight = { ...policy, context: { capacityBytes: largest + 200, stages: [0.5, 0.7, 0.85, 0.95] } };
    const rebuildWith = (copy?: TCopy) => rebuild(events, { policy: tight, copy });
    const baseline = rebuildWith();
    const long: TCopy = {
      context: {
        "*": `Context: ${"this request is very full, please choose material selectively; ".repeat(4)}{requiredBytes} of {capacityBytes} bytes.`,
      },
    };
    const short: TCopy = { context: { "*": "Ctx {percent}%" } };
    const [before, longer, shorter] = [baseline, rebuildWith(long), rebuildWith(short)].map((d) =>
      keyStatsOf([d]).find((s) => s.key === "context")!,
    );
    expect(before.candidates).toBeGreaterThan(0);
    expect(longer.dropped).toBeGreaterThan(before.dropped);
    expect(shorter.dropped).toBeLessThanOrEqual(before.dropped);
    expect(shorter.bytesIncluded / Math.max(1, shorter.included)).toBeLessThan(before.bytesIncluded / Math.max(1, before.included));
    const changes = changedTurns(baseline, rebuildWith(long));
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.flatMap((c) => c.changes).some((c) => /context: (delivered|uncertain|failed|pending) → dropped/.test(c))).toBe(true);
  });

  it("a different policy changes which stages fire", () => {
    const policy = started.type === "run.started" ? started.body.policy : {};
    const stricter = { ...policy, requests: policy.requests && { ...policy.requests, stages: [0.2, 0.4, 0.6, 0.8] } };
    const a = keyStatsOf([rebuild(events)]).find((s) => s.key === "requests")!;
    const b = keyStatsOf([rebuild(events, { policy: stricter })]).find((s) => s.key === "requests")!;
    expect(b.candidates).toBeGreaterThan(a.candidates);
  });
});

describe("changed turns", () => {
  const reminder = (key: TReminderDecision["key"], status: TReminderDecision["status"], text = "t", stage = 1): TReminderDecision => ({
    key,
    subject: null,
    kind: key === "review" ? "suggestion" : "notice",
    stage,
    text,
    bytes: text.length + 1,
    status,
  });
  const decisions = (...turns: TReminderDecision[][]): TRunDecisions => ({
    runId: "r",
    turns: turns.map((reminders, turn) => ({
      turn,
      requiredBytes: 0,
      capacityBytes: null,
      freeBytesAfter: null,
      meters: {},
      reminders,
      reviewer: null,
    })),
    findings: [],
  });

  it.each<[string, TReminderDecision[], TReminderDecision[], string[], boolean]>([
    ["same", [reminder("time", "delivered")], [reminder("time", "delivered")], [], false],
    [
      "text only",
      [reminder("context", "delivered", "long text")],
      [reminder("context", "delivered", "short")],
      ["context: text (10 → 6 B)"],
      false,
    ],
    [
      "dropped → delivered",
      [reminder("context", "dropped", "long text")],
      [reminder("context", "delivered", "short")],
      ["context: dropped → delivered", "context: text (10 → 6 B)"],
      true,
    ],
    ["stage", [reminder("requests", "delivered", "t", 1)], [reminder("requests", "delivered", "t", 2)], ["requests: stage 1 → 2"], true],
    ["new", [], [reminder("review", "delivered")], ["review: new (delivered)"], true],
    ["gone", [reminder("review", "dropped")], [], ["review: gone (was dropped)"], true],
  ])("%s", (_name, before, after, changes, fate) => {
    const changed = changedTurns(decisions(before), decisions(after));
    expect(changed).toEqual(changes.length ? [{ turn: 0, changes, fate }] : []);
  });

  it("lists fate changes first when there are more changed turns than can be listed, in turn order", () => {
    const changed: ChangedTurn[] = [0, 1, 2, 3, 4, 5].map((turn) => ({ turn, changes: ["x"], fate: turn === 1 || turn === 4 }));
    expect(turnsToList(changed, 3).map((c) => c.turn)).toEqual([0, 1, 4]);
    expect(turnsToList(changed, 1).map((c) => c.turn)).toEqual([1]);
    expect(turnsToList(changed, 10)).toEqual(changed);
  });
});
