import { describe, expect, it } from "vitest";
import { turnShareUrl } from "./turn-window";

describe("turnShareUrl", () => {
  it.each([
    ["no view parameters yet", "", 7, "https://c.example/runs/r?turn=7"],
    ["the zoom window is kept", "?from=10&to=40", 12, "https://c.example/runs/r?from=10&to=40&turn=12"],
    ["the turn is replaced", "?turn=3&from=0&to=9", 5, "https://c.example/runs/r?turn=5&from=0&to=9"],
    ["a dot run id's parameter is kept", "?runId=..&turn=1", 2, "https://c.example/runs/r?runId=..&turn=2"],
  ])("%s", (_, search, turn, expected) => {
    expect(turnShareUrl("https://c.example", "/runs/r", search, turn)).toBe(expected);
  });
});
