import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { HeaderNav } from "./header-nav";
import { THEME_COOKIE } from "./theme";
import { TimeZoneProvider, useFormatInstant } from "./time-zone";

vi.mock("next/navigation", () => ({ usePathname: () => "/runs/run-1" }));

const signOut = vi.fn(async () => {});

beforeEach(() => {
  signOut.mockClear();
  delete document.documentElement.dataset.theme;
  document.cookie = `${THEME_COOKIE}=; Max-Age=0; Path=/`;
});

describe("the header's user menu", () => {
  it("is a button that shows its panel (theme and Sign out) and says so", async () => {
    const user = userEvent.setup();
    render(<HeaderNav signedIn theme="system" signOut={signOut} />);
    const button = screen.getByRole("button", { name: "Account" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    const panel = document.getElementById(button.getAttribute("aria-controls")!)!;
    expect(panel).not.toBeVisible();
    expect(screen.queryByRole("button", { name: "Sign out" })).toBeNull();

    await user.click(button);
    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(panel).toBeVisible();
    const theme = within(panel).getByRole("group", { name: "Theme" });
    expect(
      within(theme)
        .getAllByRole("radio")
        .map((radio) => radio.getAttribute("value")),
    ).toEqual(["system", "light", "dark"]);
    expect(within(theme).getByRole("radio", { name: "System" })).toBeChecked();
    expect(within(panel).getByRole("button", { name: "Sign out" })).toBeVisible();

    await user.click(button);
    expect(button).toHaveAttribute("aria-expanded", "false");
  });

  it("closes on Escape and gives the focus back to its button", async () => {
    const user = userEvent.setup();
    render(<HeaderNav signedIn theme="system" signOut={signOut} />);
    const button = screen.getByRole("button", { name: "Account" });
    await user.click(button);
    await user.tab();
    expect(screen.getByRole("radio", { name: "System" })).toHaveFocus();

    await user.keyboard("{Escape}");
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(button).toHaveFocus();
  });

  it("closes on a click outside it, and when the focus leaves it", async () => {
    const user = userEvent.setup();
    render(
      <>
        <HeaderNav signedIn theme="system" signOut={signOut} />
        <p>elsewhere</p>
        <button type="button">after</button>
      </>,
    );
    const button = screen.getByRole("button", { name: "Account" });
    await user.click(button);
    await user.click(screen.getByText("elsewhere"));
    expect(button).toHaveAttribute("aria-expanded", "false");

    await user.click(button);
    screen.getByRole("button", { name: "Sign out" }).focus();
    await user.tab(); // past the panel's last item: on to the "Menu" button
    expect(button).toHaveAttribute("aria-expanded", "false");
  });

  it("switches the page's theme at once and keeps the choice in a cookie", async () => {
    const user = userEvent.setup();
    render(<HeaderNav signedIn theme="light" signOut={signOut} />);
    await user.click(screen.getByRole("button", { name: "Account" }));
    expect(screen.getByRole("radio", { name: "Light" })).toBeChecked();

    await user.click(screen.getByRole("radio", { name: "Dark" }));
    expect(screen.getByRole("radio", { name: "Dark" })).toBeChecked();
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(document.cookie).toContain(`${THEME_COOKIE}=dark`);

    await user.click(screen.getByRole("radio", { name: "System" }));
    expect(document.documentElement.dataset.theme).toBe("system");
    expect(document.cookie).toContain(`${THEME_COOKIE}=system`);
  });

  it("offers the time zone (Local by default, UTC, any IANA zone), keeps it in a cookie and writes times in it", async () => {
    const user = userEvent.setup();
    function Stamp() {
      return <p data-testid="stamp">{useFormatInstant()("2026-11-29T18:35:00Z")}</p>;
    }
    render(
      <TimeZoneProvider choice="local" localZone="UTC">
        <HeaderNav signedIn theme="light" signOut={signOut} />
        <Stamp />
      </TimeZoneProvider>,
    );
    await user.click(screen.getByRole("button", { name: "Account" }));
    const zone = screen.getByRole("combobox", { name: "Time zone" });
    expect(zone).toHaveValue("local");
    within(zone).getByRole("option", { name: /^Local \(browser: / });
    await user.selectOptions(zone, "Asia/Kolkata");
    expect(document.cookie).toContain("cuescope-tz=Asia%2FKolkata");
    expect(screen.getByTestId("stamp")).toHaveTextContent("2026-11-30 00:05:00 Asia/Kolkata");
    await user.selectOptions(zone, "UTC");
    expect(screen.getByTestId("stamp")).toHaveTextContent("2026-11-29 18:35:00 UTC");
  });

  it("signs out through the form's action", async () => {
    const user = userEvent.setup();
    render(<HeaderNav signedIn theme="system" signOut={signOut} />);
    await user.click(screen.getByRole("button", { name: "Account" }));
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
  });

  it("offers only the theme when nobody is signed in", async () => {
    const user = userEvent.setup();
    render(<HeaderNav signedIn={false} theme="system" signOut={signOut} />);
    expect(screen.queryByRole("button", { name: "Account" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Theme" }));
    expect(screen.getByRole("group", { name: "Theme" })).toBeVisible();
    expect(screen.queryByRole("button", { name: "Sign out" })).toBeNull();
  });
});

describe("the narrow-screen Menu", () => {
  it("holds the section links and the account items, and closes when a link is followed", async () => {
    const user = userEvent.setup();
    render(<HeaderNav signedIn theme="system" signOut={signOut} />);
    const menu = screen.getByRole("button", { name: "Menu" });
    expect(menu).toHaveAttribute("aria-expanded", "false");
    await user.click(menu);
    const panel = document.getElementById(menu.getAttribute("aria-controls")!)!;
    expect(
      within(panel)
        .getAllByRole("link")
        .map((link) => [link.textContent, link.getAttribute("href")]),
    ).toEqual([
      ["Runs", "/runs"],
      ["Reviewer", "/reviewer"],
      ["Trends", "/trends"],
      ["Alerts", "/alerts"],
      ["Experiments", "/experiments"],
      ["Copy", "/copy"],
      ["Audit", "/audit"],
      ["API", "/docs/api"],
      ["Members", "/members"],
      ["API keys", "/keys"],
    ]);
    expect(within(panel).getByRole("link", { name: "Runs" })).toHaveAttribute("aria-current", "page");
    expect(within(panel).getByRole("group", { name: "Theme" })).toBeVisible();
    expect(within(panel).getByRole("button", { name: "Sign out" })).toBeVisible();

    await user.keyboard("{Escape}");
    expect(menu).toHaveFocus();
    await user.click(menu);
    within(panel)
      .getByRole("link", { name: "Copy" })
      .addEventListener("click", (event) => event.preventDefault());
    await user.click(within(panel).getByRole("link", { name: "Copy" }));
    expect(menu).toHaveAttribute("aria-expanded", "false");
  });
});
