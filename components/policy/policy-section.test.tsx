import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect, useMemo, useState } from "react";
import { describe, expect, it } from "vitest";
import type { TPolicy } from "@/lib/contracts";
import { policyDraftFrom, policyFromDraft, type PolicyDraft } from "@/lib/copy/policy-draft";
import { teachPolicy } from "@/components/testing/fixtures";
import { PolicySections } from "./policy-section";

let latest: TPolicy | null = null;

/** The policy workbench's wiring: draft state, the policy contract's problems, the parsed policy. */
function Editor({ initial }: { initial: PolicyDraft }) {
  const [draft, setDraft] = useState(initial);
  const { policy, problems } = useMemo(() => policyFromDraft(draft), [draft]);
  useEffect(() => {
    latest = policy;
  }, [policy]);
  return <PolicySections draft={draft} problems={problems} onDraft={setDraft} />;
}

const section = (name: string) => within(document.querySelector<HTMLElement>(`[data-section="${name}"]`)!);

describe("policy editor sections", () => {
  it("shows each stage threshold in its meter's own unit", () => {
    render(<Editor initial={policyDraftFrom({ ...teachPolicy, time: { limitMs: 1_800_000, stages: [0.5, 0.9] } })} />);
    const { limit, deliveryReserve, stages } = teachPolicy.requests;
    expect(screen.getByRole("textbox", { name: "Requests request limit" })).toHaveValue(String(limit));
    expect(screen.getByRole("textbox", { name: "Requests stages" })).toHaveValue(stages.join(", "));
    const usable = limit - (deliveryReserve ?? 0);
    expect(section("requests").getByTestId("thresholds-requests")).toHaveTextContent(
      stages.map((s, i) => `stage ${i + 1} at ${Math.ceil(s * usable)} requests`).join(" · "),
    );
    expect(section("time").getByTestId("thresholds-time")).toHaveTextContent("stage 1 at 15 min · stage 2 at 27 min");
    expect(section("time").getByText("stage 2 at 27 min")).toHaveAttribute("title", "exactly 1,620,000 ms (0.9 × 1,800,000)");
    expect(screen.getByRole("textbox", { name: "Time time limit" })).toHaveValue("30");
    section("time").getByText("= 1,800,000 ms");
  });

  it("a descending stage list is flagged under the field and the policy does not parse; fixing it clears the problem", async () => {
    const user = userEvent.setup();
    render(<Editor initial={policyDraftFrom({ context: { capacityBytes: 10_000, stages: [0.7, 0.85] } })} />);
    const stages = screen.getByRole("textbox", { name: "Context stages" });
    expect(section("context").getByTestId("thresholds-context")).toHaveTextContent("stage 1 at 7,000 B · stage 2 at 8,500 B");
    await user.clear(stages);
    await user.type(stages, "0.8, 0.5");
    expect(stages).toHaveAttribute("aria-invalid", "true");
    expect(section("context").getByRole("alert")).toHaveTextContent(/^Stages: .*strictly ascending: 0.5 does not exceed 0.8/);
    expect(section("context").queryByTestId("thresholds-context")).not.toBeInTheDocument();
    expect(latest).toBeNull();
    await user.clear(stages);
    await user.type(stages, "0.5, 0.8");
    expect(stages).toHaveAttribute("aria-invalid", "false");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(latest?.context).toEqual({ capacityBytes: 10_000, stages: [0.5, 0.8] });
  });

  it("a non-number limit is named under its own field only", async () => {
    const user = userEvent.setup();
    render(<Editor initial={policyDraftFrom(teachPolicy)} />);
    const limit = screen.getByRole("textbox", { name: "Edits edits per block" });
    await user.clear(limit);
    await user.type(limit, "many");
    expect(limit).toHaveAttribute("aria-invalid", "true");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    expect(section("edits").getByRole("alert")).toHaveTextContent(/^Edits per block: /);
    expect(screen.getByRole("textbox", { name: "Edits stages" })).toHaveAttribute("aria-invalid", "false");
  });

  it("switching a section off hides its fields and drops it from the policy; on again brings them back", async () => {
    const user = userEvent.setup();
    render(<Editor initial={policyDraftFrom(teachPolicy)} />);
    const toggle = screen.getByRole("checkbox", { name: "Edits section on" });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(screen.queryByRole("textbox", { name: "Edits edits per block" })).not.toBeInTheDocument();
    section("edits").getByText(/^off: /);
    expect(latest).not.toHaveProperty("edits");
    await user.click(toggle);
    expect(screen.getByRole("textbox", { name: "Edits edits per block" })).toHaveValue(String(teachPolicy.edits.perBlockLimit));
    expect(latest?.edits).toEqual(teachPolicy.edits);
  });

  it("the reviewer flag is a checkbox that sets the policy's boolean", async () => {
    const user = userEvent.setup();
    render(<Editor initial={policyDraftFrom(teachPolicy)} />);
    const flag = screen.getByRole("checkbox", { name: "Automatic review allowed" });
    expect(flag).toBeChecked();
    await user.click(flag);
    expect(latest?.reviewer?.autoReviewAllowed).toBe(false);
  });

  it("the two review checkpoint fields are told apart, and the time one is typed in minutes or an exact unit", async () => {
    const user = userEvent.setup();
    render(<Editor initial={policyDraftFrom(teachPolicy)} />);
    const afterMs = screen.getByRole("textbox", { name: "Review checkpoints checkpoint every (time)" });
    expect(screen.getByRole("textbox", { name: "Review checkpoints checkpoint every" })).toHaveValue("10");
    await user.type(afterMs, "1.5");
    section("review").getByText("= 90,000 ms");
    expect(latest?.review).toEqual({ everyTurns: 10, afterMs: 90_000 });
    await user.clear(afterMs);
    await user.type(afterMs, "90001 ms");
    expect(latest?.review).toEqual({ everyTurns: 10, afterMs: 90_001 });
  });
});
