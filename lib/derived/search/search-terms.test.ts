import { describe, expect, it } from "vitest";
import type { TBlockMeter, TFinding, TReminderDecision, TTurnDecision } from "@/lib/contracts";
import { MAX_TERM_CHARS, normalizeSearchText, searchTermRows, type SearchTermRow, type TurnAction } from "./search-terms";
import { maskTurns, parseMask } from "./turn-mask";

function reminder(text: string, extra: Partial<TReminderDecision> = {}): TReminderDecision {
  return { key: "requests", subject: null, kind: "notice", stage: 1, text, bytes: text.length, status: "delivered", ...extra };
}
function turn(n: number, reminders: TReminderDecision[] = [], edits?: TBlockMeter[]): TTurnDecision {
  return {
    turn: n,
    requiredBytes: 100,
    capacityBytes: 1000,
    freeBytesAfter: 900,
    meters: edits ? { edits } : {},
    reminders,
    reviewer: null,
  };
}
const meter = (blockId: string, used: number, limit = 5): TBlockMeter => ({ blockId, used, limit, ratio: used / limit, stage: 0 });
const finding = (code: TFinding["code"], t: number | null): TFinding => ({ code, turn: t, detail: "" });

/** The rows as `bucket kind term → turns`, decoded from their masks (the masks are tested in turn-mask.test.ts). */
function decoded(rows: readonly SearchTermRow[]): string[] {
  return rows.map((r) => `${r.bucket} ${r.kind} ${r.term} → ${maskTurns(r.bucket, parseMask(r.mask)).join(",")}`);
}

describe("normalizeSearchText", () => {
  it.each([
    ["37 requests left", "# requests left"],
    ["Model requests: 12 of 90 usable used (13%); 78 left.", "model requests: # of # usable used (#%); # left."],
    ["  Time:\t12.5 min\n left  ", "time: #.# min left"],
    ["Block intro-2: 3 of 5 edits", "block intro-#: # of # edits"],
    ["ÉTAPE 1", "étape #"],
    ["no digits", "no digits"],
  ])("%j → %j", (text, want) => {
    expect(normalizeSearchText(text)).toBe(want);
  });
});

describe("searchTermRows", () => {
  const none = new Map<number, TurnAction[]>();

  it("indexes reminder texts normalized, so the same wording with other numbers is one term over its turns", () => {
    const turns = [
      turn(0, [reminder("37 requests left")]),
      turn(1, [reminder("36 requests left"), reminder("Time: 5 min left", { key: "time", status: "dropped" })]),
      turn(2),
      turn(3, [reminder("35 requests left")]),
    ];
    expect(decoded(searchTermRows({ turns, findings: [], actions: none, fromBucket: null }))).toEqual([
      "0 text # requests left → 0,1,3",
      "0 text time: # min left → 1",
    ]);
  });

  it("keeps buckets of 256 turn numbers apart, in bucket order", () => {
    const turns = [turn(255, [reminder("a 1")]), turn(256, [reminder("a 2")]), turn(700, [reminder("a 3")])];
    expect(decoded(searchTermRows({ turns, findings: [], actions: none, fromBucket: null }))).toEqual([
      "0 text a # → 255",
      "1 text a # → 256",
      "2 text a # → 700",
    ]);
  });

  it("puts findings on their turns (a skipped turn too) and a run-level finding on the last rebuilt turn", () => {
    const turns = [turn(0), turn(2), turn(9)];
    const findings = [
      finding("INCOMPLETE_TURN", 1),
      finding("MISSING_REMINDER", 2),
      finding("MISSING_REMINDER", 2),
      finding("FREE_REQUEST", 9),
      finding("GLOBAL_STOP_ON_LOCAL_QUOTA", null),
    ];
    expect(decoded(searchTermRows({ turns, findings, actions: none, fromBucket: null }))).toEqual([
      "0 finding FREE_REQUEST → 9",
      "0 finding GLOBAL_STOP_ON_LOCAL_QUOTA → 9",
      "0 finding INCOMPLETE_TURN → 1",
      "0 finding MISSING_REMINDER → 2",
    ]);
  });

  it("leaves a run-level finding out when no turn was rebuilt", () => {
    expect(searchTermRows({ turns: [], findings: [finding("GLOBAL_STOP_ON_LOCAL_QUOTA", null)], actions: none, fromBucket: null })).toEqual(
      [],
    );
  });

  it("indexes the action kinds of each turn and the blocks acted on", () => {
    const actions = new Map<number, TurnAction[]>([
      [4, [{ kind: "tool_call" }, { kind: "edit_block", blockId: "Intro" }, { kind: "tool_call" }]],
      [5, [{ kind: "append_block", blockId: "fees" }]],
    ]);
    expect(decoded(searchTermRows({ turns: [turn(4), turn(5)], findings: [], actions, fromBucket: null }))).toEqual([
      "0 action append_block → 5",
      "0 action edit_block → 4",
      "0 action tool_call → 4",
      "0 block Intro → 4",
      "0 block fees → 5",
    ]);
  });

  it("indexes a block where its edit meter appears or changes and where an edits reminder is about it, not where it is carried over", () => {
    const turns = [
      turn(0),
      turn(1, [], [meter("intro", 1)]),
      turn(2, [], [meter("intro", 1)]),
      turn(3, [], [meter("intro", 2), meter("table", 1)]),
      turn(4, [], [meter("intro", 2, 3), meter("table", 1)]),
      turn(
        5,
        [reminder("Block table: 1 of 5 edits used", { key: "edits", subject: "table", kind: "state" })],
        [meter("intro", 2, 3), meter("table", 1)],
      ),
    ];
    expect(decoded(searchTermRows({ turns, findings: [], actions: none, fromBucket: null }))).toEqual([
      "0 text block table: # of # edits used → 5",
      "0 block intro → 1,3,4",
      "0 block table → 3,5",
    ]);
  });

  it("on a resume, gives only the buckets from the asked one on, whole, with the turn before it as the meters' previous", () => {
    const turns = [
      turn(10, [reminder("x 1")], [meter("b", 1)]),
      turn(255, [reminder("x 2")], [meter("b", 2)]),
      turn(256, [reminder("x 3")], [meter("b", 2)]),
      turn(300, [reminder("y")], [meter("b", 3)]),
    ];
    const actions = new Map<number, TurnAction[]>([
      [12, [{ kind: "finalize" }]],
      [301, [{ kind: "finalize" }]],
    ]);
    const findings = [finding("FREE_REQUEST", 255), finding("REMINDER_RESEND", 256), finding("GLOBAL_STOP_ON_LOCAL_QUOTA", null)];
    expect(decoded(searchTermRows({ turns, findings, actions, fromBucket: 1 }))).toEqual([
      "1 text x # → 256",
      "1 text y → 300",
      "1 finding GLOBAL_STOP_ON_LOCAL_QUOTA → 300",
      "1 finding REMINDER_RESEND → 256",
      "1 action finalize → 301",
      "1 block b → 300",
    ]);
  });

  it("folds codes, kinds and block ids to lowercase for matching and keeps texts as normalized", () => {
    const rows = searchTermRows({
      turns: [turn(0, [reminder("Hello 1")])],
      findings: [finding("FREE_REQUEST", 0)],
      actions: new Map([[0, [{ kind: "edit_block", blockId: "Intro-B" }]]]),
      fromBucket: null,
    });
    expect(rows.map((r) => [r.kind, r.term, r.folded])).toEqual([
      ["text", "hello #", "hello #"],
      ["finding", "FREE_REQUEST", "free_request"],
      ["action", "edit_block", "edit_block"],
      ["block", "Intro-B", "intro-b"],
    ]);
  });

  it("keeps the first MAX_TERM_CHARS characters of a long text, whole characters", () => {
    const long = "é".repeat(MAX_TERM_CHARS - 1) + "😀😀";
    const [row] = searchTermRows({ turns: [turn(0, [reminder(long)])], findings: [], actions: none, fromBucket: null });
    expect(Array.from(row.term)).toHaveLength(MAX_TERM_CHARS);
    expect(row.term.endsWith("é😀")).toBe(true);
  });

  it("skips a reminder whose text is only white space", () => {
    expect(searchTermRows({ turns: [turn(0, [reminder("  ")])], findings: [], actions: none, fromBucket: null })).toEqual([]);
  });
});
