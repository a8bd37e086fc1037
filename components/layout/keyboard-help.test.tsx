import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { KeyboardHelp } from "./keyboard-help";

vi.mock("next/navigation", () => ({ usePathname: () => "/reviewer" }));

describe("keyboard help", () => {
  it("? opens it with this page's keys first; the menu can open it too; Close closes it", async () => {
    const user = userEvent.setup();
    const openRef: { current: (() => void) | null } = { current: null };
    render(
      <>
        <label>
          Note <input />
        </label>
        <KeyboardHelp openRef={openRef} />
      </>,
    );
    const dialog = screen.getByRole("dialog", { hidden: true });
    expect(dialog).not.toHaveAttribute("open");

    // Typing a ? in a field is typing.
    await user.type(screen.getByRole("textbox", { name: "Note" }), "?");
    expect(dialog).not.toHaveAttribute("open");

    await user.click(document.body);
    await user.keyboard("?");
    expect(dialog).toHaveAttribute("open");
    const headings = within(dialog).getAllByRole("heading", { level: 3 });
    expect(headings[0]).toHaveTextContent("Reviewer audit · this page");
    expect(dialog).toHaveTextContent("previous / next candidate with a violation");
    expect(dialog).toHaveTextContent("previous / next dropped reminder");

    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(dialog).not.toHaveAttribute("open");
    openRef.current?.();
    expect(dialog).toHaveAttribute("open");
  });
});
