import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useMemo, useState } from "react";
import { describe, expect, it, vi } from "vitest";
import type { TReminderKey } from "@/lib/contracts";
import { draftFrom, withTemplate, withoutTemplate, type CopyDraft } from "@/lib/copy/templates";
import { copyProblems } from "@/lib/copy/validate";
import { refitTurn } from "@/lib/copy/preview";
import { rebuildOutputExample } from "@/lib/testing/contract-text";
import { TEACH_COPY, teachPolicy, turn10 } from "@/components/testing/fixtures";
import { KeyTemplates } from "./key-templates";

/** The copy workbench's wiring of one key: draft state, the contract's problems, the preview turn. */
function Editor({
  reminderKey,
  initial = draftFrom(TEACH_COPY),
  withTurn = true,
}: {
  reminderKey: TReminderKey;
  initial?: CopyDraft;
  withTurn?: boolean;
}) {
  const [draft, setDraft] = useState(initial);
  const problems = useMemo(() => copyProblems(draft), [draft]);
  return (
    <KeyTemplates
      reminderKey={reminderKey}
      templates={draft[reminderKey]}
      baseTemplates={initial[reminderKey]}
      turn={withTurn ? turn10 : null}
      policy={teachPolicy}
      problems={problems}
      refit={withTurn && problems.length === 0 ? refitTurn(turn10, draft) : null}
      onChange={(name, text) => setDraft((d) => withTemplate(d, reminderKey, name, text))}
      onAdd={(name) => setDraft((d) => withTemplate(d, reminderKey, name, ""))}
      onRemove={(name) => setDraft((d) => withoutTemplate(d, reminderKey, name))}
    />
  );
}

/** One key's templates alone: no preview turn, no policy, no problems; the base is the key's "*" template. */
function Bare({
  reminderKey,
  templates,
  onAdd,
}: {
  reminderKey: TReminderKey;
  templates: Record<string, string>;
  onAdd: (name: string) => void;
}) {
  return (
    <KeyTemplates
      reminderKey={reminderKey}
      templates={templates}
      baseTemplates={{ "*": templates["*"] }}
      turn={null}
      policy={null}
      problems={[]}
      onChange={() => {}}
      onAdd={onAdd}
      onRemove={() => {}}
    />
  );
}

const row = (key: string, name: string) => document.querySelector<HTMLElement>(`[data-template="${key}.${name}"]`)!;

describe("copy editor: one key's templates", () => {
  it("previews the template on the recorded turn with the rebuild's values, bytes and fit", () => {
    render(<Editor reminderKey="requests" />);
    screen.getByRole("heading", { name: /Requests/ });
    screen.getByText("{usable}");
    const star = within(row("requests", "*"));
    // The requests notice of contract §6's example output (turn 10 of the worked example).
    const notice = rebuildOutputExample().turns[0].reminders.find((r) => r.key === "requests")!;
    expect(star.getByTestId("template-text")).toHaveTextContent(notice.text);
    expect(star.getByTestId("template-bytes")).toHaveTextContent(`${notice.bytes} B`);
    expect(star.getByTestId("template-fit")).toHaveTextContent("fits alone; fits first (38 B left)");
    expect(star.getByText(/picked at stage/)).toHaveTextContent("● picked at stage 2");
  });

  it("re-renders the preview as the template is typed, with the byte difference to the parent", async () => {
    const user = userEvent.setup();
    render(<Editor reminderKey="requests" />);
    const text = screen.getByRole("textbox", { name: "Template requests · any stage" });
    await user.clear(text);
    await user.type(text, "R{{stage}");
    const star = within(row("requests", "*"));
    expect(star.getByTestId("template-text")).toHaveTextContent(/^R2$/);
    expect(star.getByTestId("template-bytes")).toHaveTextContent("3 B");
    expect(star.getByText(/ vs parent$/)).toHaveTextContent("−16 B vs parent");
  });

  it("shows the contract's problem under the template as it is typed, and clears it when fixed", async () => {
    const user = userEvent.setup();
    render(<Editor reminderKey="context" />);
    const text = screen.getByRole("textbox", { name: /^Template context · / });
    expect(text).toHaveAttribute("aria-invalid", "false");
    await user.type(text, " {{bytes}");
    expect(text).toHaveAttribute("aria-invalid", "true");
    const alert = within(row("context", "*")).getByRole("alert");
    expect(alert).toHaveTextContent(/unknown placeholder \{bytes\}/);
    expect(text).toHaveAccessibleDescription(expect.stringMatching(/unknown placeholder \{bytes\}/));
    await user.type(text, "{Backspace}".repeat(8));
    expect(text).toHaveAttribute("aria-invalid", "false");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("a text too long for the turn's free bytes says it would not fit", async () => {
    const user = userEvent.setup();
    render(<Editor reminderKey="context" />);
    const text = screen.getByRole("textbox", { name: /^Template context · / });
    await user.clear(text);
    await user.type(text, "Context: {{requiredBytes} of {{capacityBytes} bytes, choose carefully");
    expect(within(row("context", "*")).getByTestId("template-fit")).toHaveTextContent(
      "✕ too long even alone; dropped after requests (19 B left)",
    );
  });

  it("tells the fit in R8 order: fits alone, yet dropped after the reminders before it", () => {
    render(<Editor reminderKey="review" />);
    expect(within(row("review", "*")).getByTestId("template-fit")).toHaveTextContent("fits alone; dropped after requests + b1 (2 B left)");
  });

  it("holds back the preview of an invalid template: greyed, no fit claimed, its problem instead", async () => {
    const user = userEvent.setup();
    render(<Editor reminderKey="context" />);
    const text = screen.getByRole("textbox", { name: /^Template context · / });
    await user.type(text, " {{bytes}");
    const context = within(row("context", "*"));
    expect(context.getByTestId("preview-held")).toHaveTextContent(
      /No preview or fit while this template is invalid: unknown placeholder \{bytes\}/,
    );
    expect(context.queryByTestId("template-fit")).not.toBeInTheDocument();
    expect(context.queryByText(/fits/)).not.toBeInTheDocument();
  });

  it("adds a stage template, refuses a duplicate, and removes it again", async () => {
    const user = userEvent.setup();
    render(<Editor reminderKey="requests" />);
    const stage = screen.getByRole("spinbutton", { name: "New requests stage template" });
    const add = screen.getByRole("button", { name: "Add stage template for requests" });
    expect(add).toBeDisabled();
    await user.type(stage, "2");
    await user.click(add);
    const stage2 = screen.getByRole("textbox", { name: /^Template requests · .*2/ });
    expect(stage2).toHaveValue("");
    await user.type(stage2, "Two: {{used}");
    // Lookup picks stage 2 on turn 10 (requests at stage 2): the new template is the one in use.
    expect(row("requests", "2")).toHaveTextContent("● picked at stage 2");
    expect(row("requests", "*")).toHaveTextContent("○ not picked at stage 2");

    await user.type(stage, "2");
    screen.getByText("That template exists.");
    expect(add).toBeDisabled();

    await user.click(screen.getByRole("button", { name: /^Remove template requests · / }));
    expect(screen.queryByRole("textbox", { name: /^Template requests · .*2/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Remove template/ })).not.toBeInTheDocument();
  });

  it("a missing * template still gets a row carrying its problem", () => {
    const initial = draftFrom(TEACH_COPY);
    initial.time = { "2": "late" };
    render(<Editor reminderKey="time" initial={initial} />);
    expect(within(row("time", "*")).getByRole("alert")).toHaveTextContent(/needs a "\*" template/);
    expect(within(row("time", "*")).getByRole("textbox")).toHaveValue("");
  });

  it("says why a template cannot be shown on the turn, and asks for a turn when there is none", () => {
    const { unmount } = render(<Editor reminderKey="time" />);
    screen.getByText("Not shown on this turn: the run's policy has no time meter.");
    unmount();
    render(<Editor reminderKey="requests" withTurn={false} />);
    screen.getByText("Choose a turn to preview.");
  });

  it("offers the exhausted-block template for edits only, once", async () => {
    const user = userEvent.setup();
    const onAdd = vi.fn();
    const { rerender } = render(<Bare reminderKey="edits" templates={{ "*": "E" }} onAdd={onAdd} />);
    await user.click(screen.getByRole("button", { name: "Add exhausted-block template for edits" }));
    expect(onAdd).toHaveBeenCalledWith("exhausted");
    rerender(<Bare reminderKey="edits" templates={{ "*": "E", exhausted: "X" }} onAdd={onAdd} />);
    expect(screen.queryByRole("button", { name: "Add exhausted-block template for edits" })).not.toBeInTheDocument();
    rerender(<Bare reminderKey="review" templates={{ "*": "R" }} onAdd={onAdd} />);
    expect(screen.queryByRole("button", { name: /exhausted/ })).not.toBeInTheDocument();
    screen.getByRole("button", { name: "Add checkpoint template for review" });
  });
});
