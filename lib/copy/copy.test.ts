import { describe, expect, it } from "vitest";
import { ZEvent, type TRunDecisions } from "@/lib/contracts";
import { DEFAULT_COPY, rebuild } from "@/lib/core";
import { json, TEACH_COPY, TEACH_POLICY, teachingScene, turnOf } from "@/lib/core/spec/builders";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { rebuildOutputExample, workedExampleFitting } from "@/lib/testing/contract-text";
import { diffCopies } from "./diff";
import { previewTemplate, refitTurn } from "./preview";
import { previewTurns } from "./preview-turns";
import { draftFrom, templateNames, type CopyDraft } from "./templates";
import { copyProblems, problemsAt } from "./validate";

const teaching = json(
  rebuild(
    teachingScene()
      .turn(11, (t) => t.requests(29).final(8000).ok([]))
      .events(),
  ),
);
const turn10 = turnOf(teaching, 10);
const teachDraft = draftFrom(TEACH_COPY);

describe("draft copies", () => {
  it("start from the default copy for keys the copy does not name, key by key", () => {
    const draft = draftFrom({ context: { "*": "C" } });
    expect(draft.context).toEqual({ "*": "C" });
    expect(draft.edits).toEqual(DEFAULT_COPY.edits);
    expect(draftFrom(null)).toEqual(draftFrom(DEFAULT_COPY));
  });

  it.each([
    [{ "*": "a", "10": "b", "2": "c", exhausted: "d" }, ["*", "2", "10", "exhausted"]],
    [{ "3": "x", "*": "y" }, ["*", "3"]],
  ])("orders template names %#", (templates, names) => {
    expect(templateNames(templates)).toEqual(names);
  });
});

describe("validation next to the template", () => {
  it.each<[string, (d: CopyDraft) => void, string, string | null, RegExp]>([
    ["unknown placeholder", (d) => (d.context["*"] = "{bytes} used"), "context", "*", /unknown placeholder \{bytes\}.*"context"/],
    ["placeholder of another key", (d) => (d.review["*"] = "turn {turn}, {used}"), "review", "*", /unknown placeholder \{used\}/],
    ["missing *", (d) => delete (d.time as Record<string, string>)["*"], "time", "*", /needs a "\*" template/],
    ["exhausted outside edits", (d) => (d.requests.exhausted = "x"), "requests", "exhausted", /only for key "edits"/],
    ["leading zero stage", (d) => (d.requests["02"] = "x"), "requests", "02", /unknown template name "02"/],
  ])("%s", (_name, edit, key, template, message) => {
    const draft = draftFrom(null);
    edit(draft);
    const problems = copyProblems(draft);
    expect(problemsAt(problems, key, template)).toEqual([expect.stringMatching(message)]);
    expect(problems).toHaveLength(1);
  });

  it("names a problem once even when the template repeats it", () => {
    const draft = draftFrom(null);
    draft.context["*"] = "{bytes} and {bytes}";
    expect(problemsAt(copyProblems(draft), "context", "*")).toEqual([expect.stringMatching(/unknown placeholder \{bytes\}/)]);
  });

  it("accepts the default copy and braces that are not placeholders", () => {
    const draft = draftFrom(null);
    draft.context["*"] = "{ not one } {also-not} {requiredBytes}";
    expect(copyProblems(draft)).toEqual([]);
  });
});

describe("template preview on a recorded turn", () => {
  it("renders each key with the rebuild's own values and cost (contract §9 turn 10, 38 free bytes)", () => {
    const rows = (["requests", "context", "edits", "review"] as const).map((key) =>
      previewTemplate(key, "*", teachDraft[key], turn10, TEACH_POLICY),
    );
    // Texts, costs and stages as contract §6's example output has them; each alone fits the turn's free bytes.
    const example = rebuildOutputExample().turns[0];
    const free = example.capacityBytes! - example.requiredBytes;
    expect(rows.map((r) => [r.key, r.text, r.bytes, r.stage, r.inUse, r.freeBytes, r.fits])).toEqual(
      example.reminders.map((e) => [e.key, e.text, e.bytes, e.stage, true, free, true]),
    );
  });

  it("says why a template cannot be shown, and marks templates lookup would not pick", () => {
    const time = previewTemplate("time", "*", teachDraft.time, turn10, TEACH_POLICY);
    expect(time.unavailable).toBe("the run's policy has no time meter");
    const stage1 = previewTemplate("requests", "1", { ...teachDraft.requests, "1": "first {used}" }, turn10, TEACH_POLICY);
    expect([stage1.text, stage1.inUse]).toEqual(["first 28", false]);
    const exhausted = previewTemplate("edits", "exhausted", { ...teachDraft.edits, exhausted: "{blockId} is out" }, turn10, TEACH_POLICY);
    expect([exhausted.text, exhausted.inUse, exhausted.subject]).toEqual(["b1 is out", false, "b1"]);
  });

  it.each<[string, Parameters<typeof previewTemplate>[4], string | null, number | null]>([
    ["every 10 turns: turn 11 is at checkpoint 1", { review: { everyTurns: 10 } }, null, 1],
    ["every 4 turns: turn 11 is at checkpoint 2", { review: { everyTurns: 4 } }, null, 2],
    ["time-based without a time meter: not guessed", { review: { everyTurns: 10, afterMs: 60_000 } }, "depends on the clock reading", null],
    ["no review section", {}, "no review checkpoints", null],
    ["policy not loaded", null, "not loaded yet", null],
  ])("review checkpoint of a turn without a review reminder: %s", (_name, policy, unavailable, stage) => {
    const turn11 = { ...turnOf(teaching, 11), reminders: [], reviewer: null };
    const preview = previewTemplate("review", "*", teachDraft.review, turn11, policy);
    if (unavailable) expect(preview.unavailable).toContain(unavailable);
    else expect([preview.unavailable, preview.stage, preview.text]).toEqual([null, stage, `Review checkpoint ${stage}`]);
  });

  it("a longer text costs more and stops fitting in the turn's free bytes", () => {
    const long = previewTemplate(
      "context",
      "*",
      { "*": "Context: {requiredBytes} of {capacityBytes} bytes, choose carefully" },
      turn10,
      TEACH_POLICY,
    );
    expect(long.bytes).toBe(Buffer.byteLength(long.text) + 1);
    expect(long.fits).toBe(false);
  });
});

describe("refitting a turn with a draft", () => {
  it("with the turn's own copy reproduces the rebuild's reminders exactly", () => {
    const refit = refitTurn(turn10, teachDraft);
    expect(refit.reminders.map((r) => [r.key, r.text, r.bytes, r.included, r.freeBytes])).toEqual(
      turn10.reminders.map((r) => [r.key, r.text, r.bytes, r.status !== "dropped", r.freeBytes]),
    );
    expect([refit.included, refit.baselineIncluded, refit.bytes, refit.baselineBytes]).toEqual([2, 2, 36, 36]);
  });

  it("a shorter requests text lets the context notice fit (first fit, R8)", () => {
    const draft = draftFrom(TEACH_COPY);
    draft.requests = { "*": "R{stage}" };
    const refit = refitTurn(turn10, draft);
    expect(refit.reminders.map((r) => [r.key, r.bytes, r.included])).toEqual([
      ["requests", 3, true],
      ["context", 21, true],
      ["edits", 17, false],
      ["review", 20, false],
    ]);
    expect(refit.reminders[2].freeBytes).toBe(14);
  });

  it("renders a template a draft lacks as the empty text, costing the newline alone", () => {
    const draft = draftFrom(TEACH_COPY);
    draft.requests = { "3": "R3 only" }; // no "*": validation refuses it, the preview still shows the turn
    const refit = refitTurn(turn10, draft);
    // The other three are contract §9's turn-10 reminders; with 1 byte taken instead of 19, the context notice fits.
    const [, context, edits, review] = workedExampleFitting();
    expect(refit.reminders.map((r) => [r.key, r.text, r.bytes, r.included])).toEqual([
      ["requests", "", 1, true],
      ["context", context.text, context.cost, true],
      ["edits", edits.text, edits.cost, false],
      ["review", review.text, review.cost, false],
    ]);
  });

  it("reproduces every turn of a generated run with the run's own copy (all keys, exhausted blocks, drops)", () => {
    const events = generateEtfRun({ runId: "preview", seed: 7, turns: 300 }).events.map((e) => ZEvent.parse(e));
    const started = events.find((e) => e.type === "run.started");
    const decisions: TRunDecisions = rebuild(events);
    const draft = draftFrom(started?.type === "run.started" ? started.body.copy : undefined);
    const keys = new Set<string>();
    let dropped = 0;
    for (const turn of decisions.turns) {
      const refit = refitTurn(turn, draft);
      expect(refit.reminders.map((r) => [r.text, r.bytes, r.included])).toEqual(
        turn.reminders.map((r) => [r.text, r.bytes, r.status !== "dropped"]),
      );
      turn.reminders.forEach((r) => keys.add(r.key));
      dropped += turn.reminders.filter((r) => r.status === "dropped").length;
    }
    expect([...keys].sort()).toEqual(["context", "edits", "requests", "review", "time"]);
    expect(dropped).toBeGreaterThan(0);
  });
});

describe("diff against the parent version", () => {
  it("lists added, removed and changed templates by key and template order", () => {
    const draft = draftFrom(null);
    draft.context["*"] = "Context: {percent}% full.";
    draft.requests["2"] = "Half the requests are gone.";
    delete (draft.edits as Record<string, string>).exhausted;
    expect(diffCopies(DEFAULT_COPY, draft).map((c) => [c.key, c.name, c.change])).toEqual([
      ["requests", "2", "added"],
      ["context", "*", "changed"],
      ["edits", "exhausted", "removed"],
    ]);
    expect(diffCopies(DEFAULT_COPY, draftFrom(null))).toEqual([]);
  });

  // Word diffs: see diff.test.ts.
});

describe("turns worth previewing", () => {
  const marker = (turn: number, status: "delivered" | "dropped", toTurn?: number) => ({ turn, toTurn, stage: 1, status, bytes: 10 });
  const none = { requests: [], time: [], context: [], edits: [], review: [] };
  it.each([
    ["no reminders", none, [], [], null],
    [
      "a context drop wins over an earlier drop",
      { ...none, requests: [marker(2, "dropped")], context: [marker(5, "dropped")] },
      [2, 5],
      [2, 5],
      5,
    ],
    ["any drop", { ...none, edits: [marker(1, "delivered"), marker(4, "dropped", 6)] }, [4, 5, 6], [1, 4, 5, 6], 4],
    ["only deliveries", { ...none, review: [marker(9, "delivered")] }, [], [9], 9],
  ])("%s", (_name, reminders, dropTurns, reminderTurns, suggested) => {
    expect(previewTurns({ reminders })).toEqual({ dropTurns, reminderTurns, suggested });
  });
});
