import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CopyLinkButton } from "./copy-link-button";

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, "", "/");
});

describe("CopyLinkButton", () => {
  it("copies the absolute link of this turn at the current zoom and says so", async () => {
    window.history.replaceState(null, "", "/runs/r%201?from=10&to=40&turn=12");
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue();
    render(<CopyLinkButton turn={15} />);
    await user.click(screen.getByRole("button", { name: /Copy link/ }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/runs/r%201?from=10&to=40&turn=15`);
    await screen.findByText("Copied: a link to turn 15 at this zoom");
  });

  it("shows the link in a selected field when the clipboard is refused", async () => {
    window.history.replaceState(null, "", "/runs/r1?turn=2");
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(new DOMException("denied", "NotAllowedError"));
    render(<CopyLinkButton turn={2} />);
    await user.click(screen.getByRole("button", { name: /Copy link/ }));
    const field = await screen.findByLabelText("The browser did not allow copying; copy this link:");
    expect(field).toHaveValue(`${window.location.origin}/runs/r1?turn=2`);
    expect(screen.queryByText(/Copied/)).toBeNull();
  });

  it("draws its icon as an inline svg in the text colour, hidden from assistive technology, not as a font glyph", () => {
    render(<CopyLinkButton turn={3} />);
    const button = screen.getByRole("button", { name: "Copy link" });
    const icons = button.querySelectorAll("svg");
    expect(icons).toHaveLength(1);
    expect(icons[0]).toHaveAttribute("aria-hidden", "true");
    expect(icons[0]).toHaveAttribute("stroke", "currentColor");
    expect(button.textContent?.trim()).toBe("Copy link");
  });
});
