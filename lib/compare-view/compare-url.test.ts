import { describe, expect, it } from "vitest";
import { compareUrl } from "./compare-url";

describe("compareUrl: the comparison page's shareable URL", () => {
  it("names two runs, or a run and the replay whose what-if is B, with the turn and a non-default alignment", () => {
    expect(compareUrl({ a: "run 1", b: "run/2" })).toBe("/compare?a=run+1&b=run%2F2");
    expect(compareUrl({ a: "run-1", replay: "cmx123", turn: 40 })).toBe("/compare?a=run-1&replay=cmx123&turn=40");
    expect(compareUrl({ a: "run-1", replay: "cmx123", turn: null, alignment: "share" })).toBe("/compare?a=run-1&replay=cmx123&align=share");
  });
});
