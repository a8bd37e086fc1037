import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TComment } from "@/lib/contracts";
import { renderMarkdown } from "@/lib/markdown/markdown";
import { apiError, fakeApi, renderWithClient } from "@/components/testing/api";
import { CommentThread } from "./comment-thread";

const comment = (fields: Partial<TComment> & { id: string }): TComment => ({
  runId: "r1",
  turn: null,
  body: "text",
  html: "<p>text</p>\n",
  author: { name: "alice", keyPrefix: "cs_abcdefg" },
  mine: false,
  createdAt: "2026-12-01T10:00:00.000Z",
  editedAt: null,
  ...fields,
});

afterEach(() => vi.unstubAllGlobals());

describe("CommentThread", () => {
  it("lists the run's notes rendered as Markdown, with author and time; only your own have Edit and Delete", async () => {
    fakeApi({
      "GET /api/v1/runs/r1/comments?turn=run": () => ({
        comments: [
          comment({ id: "c1", body: "**bold** note", html: "<p><strong>bold</strong> note</p>\n" }),
          comment({ id: "c2", body: "mine", mine: true, author: { name: "me", keyPrefix: null } }),
        ],
        nextCursor: null,
      }),
    });
    renderWithClient(<CommentThread runId="r1" scope="run" addLabel="Add a note to the run" emptyText="No notes." />);
    const alice = await screen.findByRole("listitem", { name: "Comment by alice" });
    expect(within(alice).getByText("bold").tagName).toBe("STRONG");
    expect(within(alice).getByText("2026-12-01 10:00:00 UTC")).toHaveAttribute("datetime", "2026-12-01T10:00:00.000Z");
    expect(within(alice).queryByRole("button", { name: /Edit/ })).toBeNull();
    const mine = screen.getByRole("listitem", { name: "Comment by me" });
    expect(within(mine).getByRole("button", { name: /Edit your comment/ })).toHaveAccessibleName(
      "Edit your comment of 2026-12-01 10:00:00 UTC",
    );
    expect(within(mine).getByRole("button", { name: /Delete your comment/ })).toHaveAccessibleName(
      "Delete your comment of 2026-12-01 10:00:00 UTC",
    );
  });

  it("shows the HTML the server stored with the comment, not a rendering of its body of its own", async () => {
    fakeApi({
      "GET /api/v1/runs/r1/comments?turn=run": () => ({
        comments: [comment({ id: "c1", body: "**as written**", html: "<p><em>as stored</em></p>\n" })],
        nextCursor: null,
      }),
    });
    renderWithClient(<CommentThread runId="r1" scope="run" addLabel="Add a note to the run" emptyText="No notes." />);
    const alice = await screen.findByRole("listitem", { name: "Comment by alice" });
    expect(within(alice).getByText("as stored").tagName).toBe("EM");
    expect(within(alice).queryByText("as written")).toBeNull();
  });

  it("previews, posts a turn comment and reads the thread again", async () => {
    let stored: TComment[] = [];
    const sent = fakeApi({
      "GET /api/v1/runs/r1/comments?turn=4": () => ({ comments: stored, nextCursor: null }),
      "POST /api/v1/runs/r1/comments": (request) => {
        const body = (request.body as { body: string }).body;
        stored = [comment({ id: "n1", turn: 4, body, html: renderMarkdown(body), mine: true })];
        return Response.json(stored[0], { status: 201 });
      },
    });
    renderWithClient(<CommentThread runId="r1" scope={4} addLabel="Add a comment on this turn" emptyText="No comments on turn 4 yet." />);
    await screen.findByText("No comments on turn 4 yet.");
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Add a comment on this turn"), "see *this*");
    await user.click(screen.getByRole("button", { name: "Preview" }));
    expect((await within(screen.getByRole("region", { name: "Add a comment on this turn: preview" })).findByText("this")).tagName).toBe(
      "EM",
    );
    await user.click(screen.getByRole("button", { name: "Add comment" }));
    await screen.findByRole("listitem", { name: "Comment by alice" });
    expect(sent.find((r) => r.method === "POST")?.body).toEqual({ body: "see *this*", turn: 4 });
  });

  it("shows the server's refusal next to the field and keeps the text", async () => {
    fakeApi({
      "GET /api/v1/runs/r1/comments?turn=run": () => ({ comments: [], nextCursor: null }),
      "POST /api/v1/runs/r1/comments": () =>
        apiError(400, "invalid", "body.body: expected a comment of 1-10000 characters, got 10001 characters"),
    });
    renderWithClient(<CommentThread runId="r1" scope="run" addLabel="Add a note to the run" emptyText="No notes." />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Add a note to the run"), "hello");
    await user.click(screen.getByRole("button", { name: "Add comment" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/10001 characters/);
    expect((screen.getByLabelText("Add a note to the run") as HTMLTextAreaElement).value).toBe("hello");
  });

  it("edits and deletes your own comment", async () => {
    let stored = [comment({ id: "c9", body: "first", html: "<p>first</p>\n", mine: true })];
    const sent = fakeApi({
      "GET /api/v1/runs/r1/comments?turn=run": () => ({ comments: stored, nextCursor: null }),
      "PATCH /api/v1/runs/r1/comments/c9": (request) => {
        const body = (request.body as { body: string }).body;
        stored = [{ ...stored[0], body, html: renderMarkdown(body), editedAt: "2026-12-01T11:00:00.000Z" }];
        return stored[0];
      },
      "DELETE /api/v1/runs/r1/comments/c9": () => {
        stored = [];
        return { id: "c9", deleted: true };
      },
    });
    renderWithClient(<CommentThread runId="r1" scope="run" addLabel="Add a note to the run" emptyText="No notes." />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: /Edit your comment/ }));
    const field = screen.getByLabelText("Edit your comment");
    await user.clear(field);
    await user.type(field, "second");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await screen.findByText("second");
    expect(screen.getByText(/edited/)).toHaveTextContent(/^· edited 2026-12-01 11:00:00 UTC$/);
    await user.click(screen.getByRole("button", { name: /Delete your comment/ }));
    await user.click(screen.getByRole("button", { name: "Yes, delete" }));
    await screen.findByText("No notes.");
    expect(sent.filter((r) => r.method !== "GET").map((r) => r.method)).toEqual(["PATCH", "DELETE"]);
  });

  it("a long comment is refused before sending, with the count in red", async () => {
    fakeApi({ "GET /api/v1/runs/r1/comments?turn=run": () => ({ comments: [], nextCursor: null }) });
    renderWithClient(<CommentThread runId="r1" scope="run" addLabel="Add a note to the run" emptyText="No notes." />);
    const field = await screen.findByLabelText("Add a note to the run");
    const user = userEvent.setup();
    await user.click(field);
    await user.paste("x".repeat(10_001));
    const count = await screen.findByText(/10,001 \/ 10,000 characters — too long/);
    expect(count).toHaveTextContent(/^10,001 \/ 10,000 characters — too long$/);
    expect(count.className).toMatch(/over/);
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field.getAttribute("aria-describedby")).toContain(count.id);
    expect((screen.getByRole("button", { name: "Add comment" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
