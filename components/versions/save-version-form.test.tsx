import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ZCopyVersion, type TCopyVersion } from "@/lib/contracts";
import { saveCopyVersion } from "@/lib/queries/copy";
import { TEACH_COPY } from "@/components/testing/fixtures";
import { SaveVersionForm } from "./save-version-form";

afterEach(() => vi.unstubAllGlobals());

/** POST /api/v1/copy-versions answered by `answer`; the requests sent are recorded. */
function stubFetch(answer: (body: Record<string, unknown>) => Response) {
  const sent: Record<string, unknown>[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_path: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      sent.push(body);
      return answer(body);
    }),
  );
  return sent;
}

const saved = (body: Record<string, unknown>): TCopyVersion =>
  ZCopyVersion.parse({
    id: "cv-1",
    kind: "copy",
    name: body.name,
    note: body.note ?? null,
    savedBy: "ana",
    parentId: null,
    createdAt: "2026-11-30T12:00:00.000Z",
    copy: body.copy,
    isDefault: body.makeDefault,
  });

function renderForm(blocked: string | null, onSaved = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  render(
    <SaveVersionForm
      kind="copy"
      save={(meta) => saveCopyVersion({ ...meta, copy: TEACH_COPY })}
      blocked={blocked}
      placeholder="e.g. terse notices"
      onSaved={onSaved}
    />,
    { wrapper },
  );
  return onSaved;
}

describe("saving a draft as a new version", () => {
  it("is blocked with the reason while the draft has problems, and needs a name", async () => {
    const user = userEvent.setup();
    renderForm("Fix the problem above first.");
    const button = screen.getByRole("button", { name: "Save as new version" });
    screen.getByText("Fix the problem above first.");
    await user.type(screen.getByRole("textbox", { name: "Name" }), "terse");
    expect(button).toBeDisabled();
  });

  it("sends name, note, default flag and the draft; then clears the form and links to a replay of it", async () => {
    const user = userEvent.setup();
    const sent = stubFetch((body) => Response.json(saved(body), { status: 201 }));
    const onSaved = renderForm(null);
    const button = screen.getByRole("button", { name: "Save as new version" });
    expect(button).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "Name" }), "terse notices");
    await user.type(screen.getByRole("textbox", { name: /^Note/ }), "shorter requests");
    await user.click(screen.getByRole("checkbox", { name: "Make it the project default" }));
    await user.click(button);
    expect(await screen.findByRole("status")).toHaveTextContent("Saved “terse notices”.");
    expect(sent).toEqual([{ name: "terse notices", note: "shorter requests", makeDefault: true, copy: TEACH_COPY }]);
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: "cv-1", name: "terse notices" }));
    expect(screen.getByRole("link", { name: /Replay it over recorded runs/ })).toHaveAttribute("href", "/copy/replay?copy=cv-1");
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("");
    expect(screen.getByRole("checkbox", { name: "Make it the project default" })).not.toBeChecked();
  });

  it("shows the API's error and keeps what was typed", async () => {
    const user = userEvent.setup();
    stubFetch(() =>
      Response.json({ error: { code: "conflict", message: 'a copy version named "terse" exists', path: "name" } }, { status: 409 }),
    );
    const onSaved = renderForm(null);
    await user.type(screen.getByRole("textbox", { name: "Name" }), "terse");
    await user.click(screen.getByRole("button", { name: "Save as new version" }));
    expect(await screen.findByRole("alert")).toHaveTextContent('Not saved: a copy version named "terse" exists');
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("terse");
    expect(onSaved).not.toHaveBeenCalled();
  });
});
