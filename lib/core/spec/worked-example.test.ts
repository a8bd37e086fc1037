/** Contract §9 (the source's teaching scene) reproduced exactly, and contract §5's default copy. */
import { describe, expect, it } from "vitest";
import { DEFAULT_COPY, rebuild } from "@/lib/core/index";
import {
  defaultCopyTable,
  fillTemplate,
  proseFacts,
  rebuildOutputExample,
  reminderCostOf,
  workedExampleCopy,
  workedExampleFitting,
  workedExamplePolicy,
  workedExampleTurn,
} from "@/lib/testing/contract-text";
import { CTX, EDITS, json, REQ, rem, run, TEACH_COPY, TEACH_POLICY, teachingScene, turnOf } from "./builders";

function teachingRun() {
  return teachingScene().turn(11, (t) =>
    t
      .requests(29)
      .final(8000)
      .ok([rem("context", 1), rem("edits", 1, "b1"), rem("review", 1)]),
  );
}

/** A ratio as the output writes it: rounded to 4 decimals (contract §6). */
const round4 = (ratio: number) => Math.round(ratio * 10_000) / 10_000;

describe("contract §9 worked example", () => {
  const decisions = json(rebuild(teachingRun().events()));
  const policy = workedExamplePolicy();
  const copy = workedExampleCopy();
  const capacityBytes = policy.context!.capacityBytes;
  const { limit, deliveryReserve: reserve = 0 } = policy.requests!;

  it("the scene's policy and copy are contract §9's setup tables", () => {
    expect(TEACH_POLICY).toStrictEqual(workedExamplePolicy());
    expect(TEACH_COPY).toStrictEqual(workedExampleCopy());
  });

  it("has runId, turns 9, 10, 11 and no findings", () => {
    expect(decisions.runId).toBe("teach");
    expect(decisions.turns.map((t) => t.turn)).toEqual([9, 10, 11]);
    expect(decisions.findings).toEqual([]);
  });

  it("turn 9: as contract §9 writes it: stage 0 everywhere, no reminders, no Reviewer candidate", () => {
    const prose = workedExampleTurn(9);
    const [used, usable, requestsStage] = proseFacts(
      prose,
      /Requests: (\d+) used of (\d+) usable\. The ratio is [\d.]+, so the stage is (\d+)\./,
    );
    const [requiredBytes, contextStage] = proseFacts(prose, /`requiredBytes` is (\d+), stage (\d+)\./);
    expect(prose).toContain("No block has been edited.");
    expect(prose).toContain("There are no reminders.");
    expect(usable).toBe(limit - reserve);
    expect(turnOf(decisions, 9)).toStrictEqual({
      turn: 9,
      requiredBytes,
      capacityBytes,
      freeBytesAfter: capacityBytes - requiredBytes,
      meters: {
        requests: { used, limit, reserve, usable, ratio: round4(used / usable), stage: requestsStage },
        context: { requiredBytes, capacityBytes, ratio: round4(requiredBytes / capacityBytes), stage: contextStage },
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

  it("turn 11: as contract §9 writes it: context noticed at stage 1, b1 state again, review suggestion again, no new Reviewer candidate", () => {
    const prose = workedExampleTurn(11);
    const [used, requestsStage] = proseFacts(prose, /Requests: (\d+) used, still stage (\d+)\./);
    const [requiredBytes, contextStage] = proseFacts(prose, /`requiredBytes` is (\d+), stage (\d+)\./);
    expect(prose).toMatch(/So there is a notice at stage 1 /);
    const [blockUsed, blockLimit] = proseFacts(prose, /Block b1 is still (\d+) of (\d+), so its state is repeated\./);
    // b1's stage is turn 10's, where the same 2 of 4 edits were used.
    const [, , blockStage] = proseFacts(workedExampleTurn(10), /Block b1: (\d+) of (\d+) edits used, stage (\d+)/);
    const [checkpoint] = proseFacts(prose, /Checkpoint (\d+) is not yet in the review ledger, so the suggestion is made again\./);
    expect(prose).toContain("There is no new\n  Reviewer candidate");
    expect(prose).toContain("All three reminders fit and are delivered.");
    const delivered = (key: "context" | "edits" | "review", subject: string | null, kind: string, stage: number, text: string) => ({
      key,
      subject,
      kind,
      stage,
      text,
      bytes: reminderCostOf(text),
      status: "delivered",
    });
    const reminders = [
      delivered(
        "context",
        null,
        "notice",
        contextStage,
        fillTemplate(copy.context!["*"], { stage: contextStage, requiredBytes, capacityBytes }),
      ),
      delivered(
        "edits",
        "b1",
        "state",
        blockStage,
        fillTemplate(copy.edits!["*"], { stage: blockStage, blockId: "b1", used: blockUsed, limit: blockLimit }),
      ),
      delivered("review", null, "suggestion", checkpoint, fillTemplate(copy.review!["*"], { checkpoint })),
    ];
    const usable = limit - reserve;
    expect(turnOf(decisions, 11)).toStrictEqual({
      turn: 11,
      requiredBytes,
      capacityBytes,
      freeBytesAfter: capacityBytes - requiredBytes - reminders.reduce((sum, r) => sum + r.bytes, 0),
      meters: {
        requests: { used, limit, reserve, usable, ratio: round4(used / usable), stage: requestsStage },
        context: { requiredBytes, capacityBytes, ratio: round4(requiredBytes / capacityBytes), stage: contextStage },
        edits: [{ blockId: "b1", used: blockUsed, limit: blockLimit, ratio: round4(blockUsed / blockLimit), stage: blockStage }],
      },
      reminders,
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
    expect(json(DEFAULT_COPY)).toStrictEqual(defaultCopyTable());
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
    // The placeholders' values for the turn's inputs (contract §5's placeholder table), worked out by hand.
    const table = defaultCopyTable();
    const expected = (key: keyof typeof table, subject: string | null, template: string, values: Record<string, string | number>) => {
      const text = fillTemplate(table[key]![template], values);
      return [key, subject, text, reminderCostOf(text)];
    };
    expect(turnOf(d, 1).reminders.map((r) => [r.key, r.subject, r.text, r.bytes])).toEqual([
      expected("requests", null, "*", { used: 28, usable: 36, percent: 77, remaining: 8, reserve: 4 }),
      expected("time", null, "*", { elapsedMin: 15, limitMin: 30, percent: 50, remainingMin: 15 }),
      expected("context", null, "*", { requiredBytes: 7000, capacityBytes: 10000, percent: 70 }),
      expected("edits", "b1", "*", { blockId: "b1", used: 2, limit: 4, remaining: 2 }),
      expected("edits", "b2", "exhausted", { blockId: "b2" }),
      expected("review", null, "*", { checkpoint: 1 }),
    ]);
  });
});
