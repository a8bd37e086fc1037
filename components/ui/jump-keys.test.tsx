import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { JumpKeys, jumpTarget } from "./jump-keys";

function Page() {
  return (
    <>
      <JumpKeys kind="violation" noun="violation" />
      <label>
        Search <input />
      </label>
      <ul>
        <li {...jumpTarget("violation", "r1, turn 3")}>
          <a href="/a">a</a>{" "}
          <a href="/a2" data-jump-focus="">
            a2
          </a>
        </li>
        <li>
          <a href="/b">b (fine)</a>
        </li>
        <li {...jumpTarget("violation", "r2, turn 9")}>
          <button type="button">c</button>
        </li>
        <li {...jumpTarget("other", "x")}>
          <a href="/x">x</a>
        </li>
      </ul>
    </>
  );
}

describe("JumpKeys: ] and [ step through the page's flagged items", () => {
  it("focuses each flagged item in page order and says where it landed, without wrapping", async () => {
    const user = userEvent.setup();
    render(<Page />);
    const status = screen.getByRole("status");
    await user.keyboard("]");
    expect(screen.getByRole("link", { name: "a2" })).toHaveFocus(); // the item's [data-jump-focus]
    expect(status).toHaveTextContent("Violation 1 of 2: r1, turn 3");
    await user.keyboard("]");
    expect(screen.getByRole("button", { name: "c" })).toHaveFocus(); // else its first link or button
    expect(status).toHaveTextContent("Violation 2 of 2: r2, turn 9");
    await user.keyboard("]");
    expect(screen.getByRole("button", { name: "c" })).toHaveFocus();
    expect(status).toHaveTextContent("No later violation on this page.");
    await user.keyboard("[[");
    expect(screen.getByRole("link", { name: "a2" })).toHaveFocus();
  });

  it("counts from wherever the focus is, and leaves typing alone", async () => {
    const user = userEvent.setup();
    render(<Page />);
    screen.getByRole("link", { name: "a" }).focus(); // inside the first item, not its focus target
    await user.keyboard("]");
    expect(screen.getByRole("button", { name: "c" })).toHaveFocus();

    // From an unflagged row between them: the next flagged one after it, or the last one before it.
    screen.getByRole("link", { name: "b (fine)" }).focus();
    await user.keyboard("]");
    expect(screen.getByRole("button", { name: "c" })).toHaveFocus();
    screen.getByRole("link", { name: "b (fine)" }).focus();
    await user.keyboard("[[");
    expect(screen.getByRole("link", { name: "a2" })).toHaveFocus();

    const input = screen.getByRole("textbox", { name: "Search" });
    await user.click(input);
    await user.keyboard("[[]");
    expect(input).toHaveFocus();
    expect(input).toHaveValue("[]");
    screen.getByText("previous / next violation", { exact: false });
  });
});
