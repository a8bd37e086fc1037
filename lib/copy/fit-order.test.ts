import { describe, expect, it } from "vitest";
import type { TReminderKey } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { json, TEACH_COPY, TEACH_POLICY, teachingScene, turnOf } from "@/lib/core/spec/builders";
import { fitVerdict, fitVerdictText } from "./fit-order";
import { previewTemplate, refitTurn } from "./preview";
import { draftFrom, type CopyDraft } from "./templates";

// Contract §9's turn 10: 38 free bytes; costs requests 19, context 21, edits b1 17, review 20.
const turn10 = turnOf(json(rebuild(teachingScene().events())), 10);

function verdictOf(key: TReminderKey, name: string, edit: (d: CopyDraft) => void = () => {}, turn = turn10) {
  const draft = draftFrom(TEACH_COPY);
  edit(draft);
  const preview = previewTemplate(key, name, draft[key], turn, TEACH_POLICY);
  return fitVerdictText(fitVerdict(preview, refitTurn(turn, draft)));
}

describe("a template's fit in R8 order on the previewed turn", () => {
  it.each<[string, TReminderKey, string, (d: CopyDraft) => void, string]>([
    ["the first candidate fits first", "requests", "*", () => {}, "fits alone; fits first (38 B left)"],
    // Fits alone (21 <= 38), but the requests notice takes 19 first (R8 first fit).
    ["fits alone, dropped in order", "context", "*", () => {}, "fits alone; dropped after requests (19 B left)"],
    ["fits after what was included", "edits", "*", () => {}, "fits alone; fits after requests (19 B left)"],
    [
      "the issue's case: dropped after two included reminders",
      "review",
      "*",
      () => {},
      "fits alone; dropped after requests + b1 (2 B left)",
    ],
    [
      "a shorter requests text changes the order's outcome",
      "edits",
      "*",
      (d) => (d.requests = { "*": "R{stage}" }),
      "fits alone; dropped after requests + context (14 B left)",
    ],
    [
      "too long even alone",
      "context",
      "*",
      (d) => (d.context = { "*": "Context: {requiredBytes} of {capacityBytes} bytes, choose carefully" }),
      "✕ too long even alone; dropped after requests (19 B left)",
    ],
    [
      "a stage template lookup does not pick on this turn is judged alone",
      "requests",
      "1",
      (d) => (d.requests["1"] = "first {used}"),
      "fits alone in 38 B free; not a candidate on this turn, so not fitted with the others",
    ],
  ])("%s", (_name, key, name, edit, text) => {
    expect(verdictOf(key, name, edit)).toBe(text);
  });

  it("says every reminder fits when the run has no byte limit", () => {
    const unlimited = { ...turn10, capacityBytes: null };
    expect(verdictOf("review", "*", () => {}, unlimited)).toBe("no byte limit on this run: fits");
  });

  it("agrees with the turn's recorded fate when the draft is the run's own copy", () => {
    const fates = turn10.reminders.map((r) => [r.key, r.status === "dropped" ? "dropped" : "fits"]);
    expect(
      fates.map(
        ([key]) =>
          verdictOf(key as TReminderKey, "*")
            .split("; ")[1]
            .split(" ")[0],
      ),
    ).toEqual(fates.map(([, f]) => f));
  });
});
