import { describe, expect, it } from "vitest";
import { replayVersionParts, whatIfLabel } from "./replay-versions";

describe("a replay's versions in words", () => {
  const names = new Map([
    ["cv-1", "short context"],
    ["pv-1", "earlier stages"],
  ]);
  it("names each version the job tried (its id when its name is not known), and B's label in a comparison", () => {
    const both = replayVersionParts({ copyVersionId: "cv-1", policyVersionId: "pv-1" }, (id) => names.get(id));
    expect(both).toEqual(["copy “short context”", "policy “earlier stages”"]);
    expect(replayVersionParts({ copyVersionId: null, policyVersionId: "pv-9" }, (id) => names.get(id))).toEqual(["policy “pv-9”"]);
    expect(whatIfLabel("etf-1", "cmxajb59j0005gt7du9fn91hu", both)).toBe(
      "etf-1 · what-if (replay cmxajb59: copy “short context” / policy “earlier stages”)",
    );
  });
});
