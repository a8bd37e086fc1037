import { describe, expect, it } from "vitest";
import type { TReminderDecision, TTurnDecision } from "@/lib/contracts";
import { pairRows } from "./turn-pair";

const r = (
  key: TReminderDecision["key"],
  stage: number,
  status: TReminderDecision["status"],
  subject: string | null = null,
): TReminderDecision => ({
  key,
  subject,
  kind: key === "edits" ? "state" : "notice",
  stage,
  text: "x",
  bytes: 1,
  status,
});
const t = (reminders: TReminderDecision[], reviewer: TTurnDecision["reviewer"] = null): TTurnDecision => ({
  turn: 7,
  requiredBytes: 1,
  capacityBytes: null,
  freeBytesAfter: null,
  meters: {},
  reminders,
  reviewer,
});

describe("pairRows", () => {
  it("puts each reminder either run gave on one row, A's order first, and marks what differs", () => {
    const rows = pairRows(
      t([r("requests", 2, "delivered"), r("edits", 1, "dropped", "b1")]),
      t([r("requests", 2, "delivered"), r("context", 1, "delivered"), r("edits", 1, "delivered", "b1")], {
        candidate: { checkpoint: 1 },
        admission: { granted: false, reasons: ["insufficient_budget"] },
      }),
    );
    expect(rows).toEqual([
      { label: "requests", a: "notice stage 2 · delivered", b: "notice stage 2 · delivered", differs: false },
      { label: "edits · b1", a: "state stage 1 · dropped", b: "state stage 1 · delivered", differs: true },
      { label: "context", a: "none", b: "notice stage 1 · delivered", differs: true },
      { label: "Reviewer candidate", a: "none", b: "checkpoint 1 · denied (insufficient_budget)", differs: true },
    ]);
  });

  it("says which run did not rebuild the turn", () => {
    expect(pairRows(t([r("time", 1, "pending")]), null)).toEqual([
      { label: "time", a: "notice stage 1 · pending", b: "turn not rebuilt", differs: true },
    ]);
  });
});
