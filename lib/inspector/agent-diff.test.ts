import { describe, expect, it } from "vitest";
import type { TRecordedReminder, TReminderDecision } from "@/lib/contracts";
import { diffAgentWithRebuild, type AgentDiffInput, type DiffMark } from "./agent-diff";

/** A rebuilt reminder: key, subject, stage, status (text and bytes do not matter here). */
function rb(
  key: TReminderDecision["key"],
  subject: string | null,
  stage: number,
  status: TReminderDecision["status"] = "delivered",
): TReminderDecision {
  const kind = key === "edits" ? "state" : key === "review" ? "suggestion" : "notice";
  return {
    key,
    subject,
    kind,
    stage,
    text: `${key} ${stage}`,
    bytes: 10,
    status,
    ...(status === "dropped" ? { dropReason: "capacity" as const, freeBytes: 3 } : {}),
  };
}
const ag = (key: TRecordedReminder["key"], stage: number, subject?: string | null): TRecordedReminder =>
  subject === undefined ? { key, stage } : { key, subject, stage };
const ok = (reminders?: TRecordedReminder[]): AgentDiffInput["submission"] => ({ outcome: "ok", ...(reminders ? { reminders } : {}) });

type Row = [string, DiffMark[]];
const summary = (input: AgentDiffInput): Row[] =>
  diffAgentWithRebuild(input).rows.map((r) => [`${r.key}${r.subject === null ? "" : `:${r.subject}`}`, r.marks]);

describe("diffAgentWithRebuild: rows by (key, subject) with contract §7's differences", () => {
  it.each<[string, AgentDiffInput, Row[]]>([
    [
      "an agreeing list has no differences",
      { reminders: [rb("requests", null, 2), rb("edits", "b1", 1)], submission: ok([ag("requests", 2), ag("edits", 1, "b1")]), marked: [] },
      [
        ["requests", []],
        ["edits:b1", []],
      ],
    ],
    [
      "an absent subject equals null",
      { reminders: [rb("context", null, 1)], submission: ok([ag("context", 1, null)]), marked: [] },
      [["context", []]],
    ],
    [
      "missing: included by the rebuild, absent from the list",
      { reminders: [rb("requests", null, 2), rb("context", null, 3, "uncertain")], submission: ok([ag("requests", 2)]), marked: [] },
      [
        ["requests", []],
        ["context", ["missing"]],
      ],
    ],
    [
      "a dropped reminder is not expected in the list; listing it is unexpected",
      { reminders: [rb("context", null, 3, "dropped"), rb("review", null, 1, "dropped")], submission: ok([ag("review", 1)]), marked: [] },
      [
        ["context", []],
        ["review", ["unexpected"]],
      ],
    ],
    [
      "unexpected: a pair the rebuild made no candidate for",
      { reminders: [], submission: ok([ag("time", 1)]), marked: [] },
      [["time", ["unexpected"]]],
    ],
    [
      "stage differs",
      { reminders: [rb("requests", null, 2)], submission: ok([ag("requests", 1)]), marked: [] },
      [["requests", ["stage_differs"]]],
    ],
    [
      "a duplicated pair is compared at the agent's highest stage",
      { reminders: [rb("requests", null, 2)], submission: ok([ag("requests", 1), ag("requests", 2)]), marked: [] },
      [["requests", ["duplicate"]]],
    ],
    [
      "a duplicated pair whose highest stage differs",
      { reminders: [rb("requests", null, 2)], submission: ok([ag("requests", 3), ag("requests", 2), ag("requests", 3)]), marked: [] },
      [["requests", ["stage_differs", "duplicate"]]],
    ],
    [
      "[] means the agent put nothing in the request",
      { reminders: [rb("edits", "b2", 1, "failed")], submission: { outcome: "failed", reminders: [] }, marked: [] },
      [["edits:b2", ["missing"]]],
    ],
    [
      "an absent list is no record: nothing compared",
      { reminders: [rb("requests", null, 2)], submission: ok(), marked: [] },
      [["requests", []]],
    ],
    [
      "different subjects are different pairs; rows follow presentation order, subjects by code point",
      {
        reminders: [rb("edits", "b1", 1), rb("edits", "b2", 2), rb("review", null, 1)],
        submission: ok([ag("review", 1), ag("edits", 2, "b2"), ag("edits", 1, "b0"), ag("requests", 1)]),
        marked: [],
      },
      [
        ["requests", ["unexpected"]],
        ["edits:b0", ["unexpected"]],
        ["edits:b1", ["missing"]],
        ["edits:b2", []],
        ["review", []],
      ],
    ],
  ])("%s", (_, input, rows) => expect(summary(input)).toEqual(rows));
});

describe("diffAgentWithRebuild: marked entries (MARKED_NOT_SUBMITTED)", () => {
  it.each<[string, AgentDiffInput, (boolean | null)[], DiffMark[]]>([
    [
      "in the list at the same stage",
      { reminders: [rb("requests", null, 2)], submission: ok([ag("requests", 2)]), marked: [ag("requests", 2)] },
      [true],
      [],
    ],
    [
      "in the list at another stage",
      { reminders: [rb("requests", null, 2)], submission: ok([ag("requests", 2)]), marked: [ag("requests", 1)] },
      [false],
      ["marked_not_submitted"],
    ],
    [
      "no submission",
      { reminders: [rb("requests", null, 2, "pending")], submission: null, marked: [ag("requests", 2)] },
      [false],
      ["marked_not_submitted"],
    ],
    [
      "a failed submission",
      {
        reminders: [rb("requests", null, 2, "failed")],
        submission: { outcome: "failed", reminders: [ag("requests", 2)] },
        marked: [ag("requests", 2)],
      },
      [false],
      ["marked_not_submitted"],
    ],
    [
      "a submission without a list is checked only for failed",
      { reminders: [rb("requests", null, 2)], submission: ok(), marked: [ag("requests", 2)] },
      [true],
      [],
    ],
    ["a skipped turn checks nothing", { reminders: null, submission: null, marked: [ag("requests", 2)] }, [null], []],
  ])("%s", (_, input, submitted, marks) => {
    const [row] = diffAgentWithRebuild(input).rows;
    expect(row.marked.map((m) => m.submitted)).toEqual(submitted);
    expect(row.marks).toEqual(marks);
  });
});

describe("diffAgentWithRebuild: record kind and counts", () => {
  it.each<[string, AgentDiffInput, string, boolean, number]>([
    ["no submission", { reminders: [], submission: null, marked: [] }, "no_submission", false, 0],
    ["a submission without a list", { reminders: [], submission: ok(), marked: [] }, "no_record", false, 0],
    ["an empty list", { reminders: [rb("time", null, 1)], submission: ok([]), marked: [] }, "list", true, 1],
    ["a skipped turn with a list", { reminders: null, submission: ok([ag("time", 1)]), marked: [] }, "list", false, 0],
  ])("%s", (_, input, record, compared, differing) => {
    const diff = diffAgentWithRebuild(input);
    expect([diff.record, diff.compared, diff.differing]).toEqual([record, compared, differing]);
  });

  it("shows the agent's stages in list order and the highest", () => {
    const [row] = diffAgentWithRebuild({
      reminders: [rb("requests", null, 2)],
      submission: ok([ag("requests", 3), ag("requests", 1)]),
      marked: [],
    }).rows;
    expect(row.agent).toEqual([3, 1]);
    expect(row.agentStage).toBe(3);
  });
});
