/** Contract §11 on the run page's timeline: the stacked parts series, and runs without parts. */
import { describe, expect, it } from "vitest";
import { ZRunTimeline } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { CTX, REQ, run } from "@/lib/core/spec/builders";
import { buildTimeline } from "./build-timeline";

const policy = { requests: REQ, context: CTX };

describe("the timeline's context parts", () => {
  it("is absent for a run that sends no parts (today's view)", () => {
    const events = run({ policy })
      .turn(0, (t) => t.final(100).ok())
      .turn(1, (t) => t.final(200).ok())
      .events();
    const timeline = buildTimeline(rebuild(events), events);
    expect("contextParts" in timeline).toBe(false);
  });

  it("has one point per turn that sent parts, their requiredBytes as value, the parts present in contract order, and counts of turns with and without", () => {
    const events = run({ policy })
      .turn(0, (t) => t.finalWith({ requiredBytes: 1000, contextParts: { history: 600, system: 200 } }).ok())
      .turn(1, (t) => t.final(1100).ok())
      .turn(2, (t) => t.finalWith({ requiredBytes: 1300, contextParts: { retrieved: 100, system: 200, history: 900 } }).ok())
      .events();
    const timeline = ZRunTimeline.parse(buildTimeline(rebuild(events), events));
    expect(timeline.contextParts).toEqual({
      unit: "bytes",
      parts: ["system", "history", "retrieved"],
      turnsWithParts: 2,
      turnsWithoutParts: 1,
      points: [
        { turn: 0, value: 1000, system: 200, history: 600 },
        { turn: 2, value: 1300, system: 200, history: 900, retrieved: 100 },
      ],
    });
  });

  it("keeps, when thinned, the turns where a reminder was dropped and where a compaction ran", () => {
    // 2,000 turns whose history grows by a wobbling amount, one compaction, and one turn packed so full that a reminder is dropped.
    const builder = run({ policy });
    let history = 1000;
    for (let turn = 0; turn < 2000; turn++) {
      history += (turn * 7919) % 13;
      if (turn === 1500) history = 1000;
      const required = turn === 777 ? 9_999 : 2000 + (history % 5000);
      builder.turn(turn, (t) => {
        if (turn === 777) t.requests(28);
        if (turn === 1500) t.compaction(6900, 3000, "adopted");
        t.finalWith({ requiredBytes: required, contextParts: { system: 1500, history: Math.min(required - 1500, history % 5000) } }).ok();
      });
    }
    const events = builder.events();
    const decisions = rebuild(events);
    const dropped = decisions.turns.filter((t) => t.reminders.some((r) => r.status === "dropped")).map((t) => t.turn);
    expect(dropped).toContain(777);
    const timeline = buildTimeline(decisions, events, { maxPoints: 60 });
    const turns = timeline.contextParts!.points.map((p) => p.turn);
    expect(timeline.downsampled).toBe(true);
    expect(turns.length).toBeLessThanOrEqual(2 * 60);
    for (const turn of [0, 1999, 1500, ...dropped]) expect(turns).toContain(turn);
    expect(timeline.contextParts!.points.find((p) => p.turn === 777)).toEqual({
      turn: 777,
      value: 9_999,
      system: 1500,
      history: expect.any(Number),
    });
  });
});
