import { describe, expect, it } from "vitest";
import { FINDING_CODES } from "@/lib/contracts";
import { FINDING_INFO, SEVERITY_ORDER } from "./finding-info";

describe("finding explanations", () => {
  it.each(FINDING_CODES)("%s has a title, a rule sentence, a reference and a severity", (code) => {
    const info = FINDING_INFO[code];
    expect(info.title.length).toBeGreaterThan(3);
    expect(info.rule).toMatch(/\.$/);
    expect(info.ref).toMatch(/^(R\d+|§\d)/);
    expect(SEVERITY_ORDER).toContain(info.severity);
  });

  it("explains exactly the codes of contract §7", () => {
    expect(Object.keys(FINDING_INFO).sort()).toEqual([...FINDING_CODES].sort());
  });
});
