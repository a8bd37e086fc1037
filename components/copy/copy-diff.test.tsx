import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DEFAULT_COPY } from "@/lib/core";
import { diffCopies } from "@/lib/copy/diff";
import { draftFrom } from "@/lib/copy/templates";
import { CopyDiff } from "./copy-diff";

describe("copy editor: changes from the parent version", () => {
  it("lists added, changed and removed templates with their words marked inserted or deleted", () => {
    const draft = draftFrom(null);
    draft.requests["2"] = "Half the requests are gone.";
    draft.context["*"] = "Context: {percent}% full.";
    delete (draft.edits as Record<string, string>).exhausted;
    render(<CopyDiff changes={diffCopies(DEFAULT_COPY, draft)} parentName="the built-in default copy" />);
    const items = within(screen.getByRole("list", { name: "Changes from the built-in default copy" })).getAllByRole("listitem");
    expect(items.map((li) => [li.querySelector("strong")?.textContent, li.getAttribute("data-change")])).toEqual([
      ["requests", "added"],
      ["context", "changed"],
      ["edits", "removed"],
    ]);
    expect(items[0]).toHaveTextContent("requests · stage 2 added");
    expect(within(items[0]).getByRole("insertion")).toHaveTextContent("Half the requests are gone.");
    expect(
      within(items[1])
        .getAllByRole("insertion")
        .map((n) => n.textContent)
        .join(""),
    ).toContain("{percent}% full.");
    expect(within(items[1]).getAllByRole("deletion").length).toBeGreaterThan(0);
    expect(within(items[2]).queryByRole("insertion")).toBeNull();
    expect(within(items[2]).getByRole("deletion")).toHaveTextContent(DEFAULT_COPY.edits!.exhausted!);
  });

  it("keeps a deleted end of sentence apart from the inserted one, each named in words", () => {
    const draft = draftFrom(null);
    draft.review["*"] = "be selective.";
    const base = { ...DEFAULT_COPY, review: { "*": "Be selectively." } };
    render(<CopyDiff changes={diffCopies(base, draft)} parentName="v1" />);
    const deletion = screen.getByRole("deletion");
    const insertion = screen.getByRole("insertion");
    expect(deletion).toHaveTextContent("deleted: Be selectively. (end of deletion)");
    expect(insertion).toHaveTextContent("inserted: be selective. (end of insertion)");
    // Shown on screen (the spoken words are .sr-only): "Be selectively." and "be selective." with a space between.
    const shown = (node: Element): string =>
      [...node.childNodes]
        .map((n): string => (n instanceof Element ? (n.classList.contains("sr-only") ? "" : shown(n)) : (n.textContent ?? "")))
        .join("");
    expect(shown(deletion.closest("p")!)).toBe("Be selectively. be selective.");
  });

  it("says when nothing changed", () => {
    render(<CopyDiff changes={diffCopies(DEFAULT_COPY, draftFrom(null))} parentName="“terse”" />);
    screen.getByText("No changes from “terse” yet.");
  });
});
