/** Contract §9 (the source's teaching scene) reproduced exactly, and contract §5's default copy. */
import { describe, expect, it } from "vitest";
import { DEFAULT_COPY, rebuild } from "@/lib/core/index";
import { rebuildOutputExample, workedExampleCopy, workedExampleFitting, workedExamplePolicy } from "@/lib/testing/contract-text";
import { CTX, EDITS, json, REQ, rem, run, TEACH_COPY, TEACH_POLICY, teachingScene, turnOf } from "./builders";

function teachingRun() {
  return teachingScene().turn(11, (t) =>
    t
      .requests(29)
      .final(8000)
      .ok([rem("context", 1), rem("edits", 1, "b1"), rem("review", 1)]),
  );
}

describe("contract §9 worked example", () => {
  const decisions = json(rebuild(teachingRun().events()));

  it("the scene's policy and copy are contract §9's setup tables", () => {
    expect(TEACH_POLICY).toStrictEqual(workedExamplePolicy());
    expect(TEACH_COPY).toStrictEqual(workedExampleCopy());
  });

  it("has runId, turns 9, 10, 11 and no findings", () => {
    expect(decisions.runId).toBe("teach");
    expect(decisions.turns.map((t) => t.turn)).toEqual([9, 10, 11]);
    expect(decisions.findings).toEqual([]);
  });

  it("turn 9: stage 0 everywhere, no reminders, no Reviewer candidate", () => {
    expect(turnOf(decisions, 9)).toStrictEqual({
      turn: 9,
      requiredBytes: 5000,
      capacityBytes: 10000,
      freeBytesAfter: 5000,
      meters: {
        requests: { used: 17, limit: 40, reserve: 4, usable: 36, ratio: 0.4722, stage: 0 },
        context: { requiredBytes: 5000, capacityBytes: 10000, ratio: 0.5, stage: 0 },
      },
      reminders: [],
      reviewer: null,
    });
  });

  it("turn 10: exactly contract §6's example output", () => {
    const example = rebuildOutputExample();
    expect(example.runId).toBe(decisions.runId);
    expect(example.turns.map((t) => t.turn)).toEqual([10]);
    expect(turnOf(decisions, 10)).toStrictEqual(example.turns[0]);
    expect(decisions.findings).toStrictEqual(example.findings);
  });

  it("turn 10: fits in presentation order as contract §9's table says (R8)", () => {
    const turn = turnOf(decisions, 10);
    expect(turn.capacityBytes! - turn.requiredBytes).toBe(38);
    expect(
      turn.reminders.map((r) => ({
        text: r.text,
        cost: r.bytes,
        result: r.status,
        droppedWithFree: r.status === "dropped" ? r.freeBytes : null,
      })),
    ).toEqual(workedExampleFitting().map(({ freeBytesAfter: _, ...row }) => row));
    // "free bytes after" each step: the free bytes minus the delivered reminders so far.
    let free = turn.capacityBytes! - turn.requiredBytes;
    const after = turn.reminders.map((r) => (free -= r.status === "delivered" ? r.bytes : 0));
    expect(after).toEqual(workedExampleFitting().map((row) => row.freeBytesAfter));
    expect(turn.freeBytesAfter).toBe(after.at(-1));
  });

  it("turn 11: context noticed at stage 1, b1 state again, review suggestion again, no new Reviewer candidate", () => {
    expect(turnOf(decisions, 11)).toStrictEqual({
      turn: 11,
      requiredBytes: 8000,
      capacityBytes: 10000,
      freeBytesAfter: 2000 - 21 - 17 - 20,
      meters: {
        requests: { used: 29, limit: 40, reserve: 4, usable: 36, ratio: 0.8056, stage: 2 },
        context: { requiredBytes: 8000, capacityBytes: 10000, ratio: 0.8, stage: 1 },
        edits: [{ blockId: "b1", used: 2, limit: 4, ratio: 0.5, stage: 1 }],
      },
      reminders: [
        { key: "context", subject: null, kind: "notice", stage: 1, text: "C1: 8000/10000 bytes", bytes: 21, status: "delivered" },
        { key: "edits", subject: "b1", kind: "state", stage: 1, text: "E1 b1: 2/4 edits", bytes: 17, status: "delivered" },
        { key: "review", subject: null, kind: "suggestion", stage: 1, text: "Review checkpoint 1", bytes: 20, status: "delivered" },
      ],
      reviewer: null,
    });
  });

  it("is the same when replayed with options.policy / options.copy equal to the run's own", async () => {
    const { ZPolicy } = await import("@/lib/contracts");
    const replay = json(rebuild(teachingRun().events(), { policy: ZPolicy.parse(TEACH_POLICY), copy: TEACH_COPY }));
    expect(replay).toStrictEqual(decisions);
  });
});

describe("contract §5 default copy", () => {
  it("DEFAULT_COPY is the table of §5, key → template name → text", () => {
    expect(json(DEFAULT_COPY)).toStrictEqual({
      requests: {
        "*": "Model requests: {used} of {usable} usable used ({percent}%); {remaining} left before the {reserve} reserved for final delivery.",
      },
      time: { "*": "Time: {elapsedMin} of {limitMin} min used ({percent}%); {remainingMin} min left." },
      context: {
        "*": "Context: this request is {requiredBytes} of {capacityBytes} bytes ({percent}%); choose material selectively.",
      },
      edits: {
        "*": "Block {blockId}: {used} of {limit} edits used; {remaining} left. Edit it only when needed.",
        exhausted:
          "Block {blockId} has no edits left. This limits only this block: other blocks, appending new content and finishing the answer are unaffected.",
      },
      review: { "*": "Checkpoint {checkpoint}: review the research objectives and any open evidence gaps before going on." },
    });
  });

  it("a run without copy renders every key with the default copy", () => {
    const d = rebuild(
      run({
        policy: {
          requests: REQ,
          time: { limitMs: 1_800_000, stages: [0.5] },
          context: CTX,
          edits: EDITS,
          review: { everyTurns: 1 },
        },
      })
        .turn(1, (t) => t.requests(28).time(900_000).block("b1", 2).block("b2", 4).final(7000).ok())
        .events(),
    );
    expect(turnOf(d, 1).reminders.map((r) => [r.key, r.subject, r.text, r.bytes])).toEqual([
      ["requests", null, "Model requests: 28 of 36 usable used (77%); 8 left before the 4 reserved for final delivery.", 93],
      ["time", null, "Time: 15 of 30 min used (50%); 15 min left.", 44],
      ["context", null, "Context: this request is 7000 of 10000 bytes (70%); choose material selectively.", 81],
      ["edits", "b1", "Block b1: 2 of 4 edits used; 2 left. Edit it only when needed.", 63],
      [
        "edits",
        "b2",
        "Block b2 has no edits left. This limits only this block: other blocks, appending new content and finishing the answer are unaffected.",
        134,
      ],
      ["review", null, "Checkpoint 1: review the research objectives and any open evidence gaps before going on.", 89],
    ]);
  });
});
