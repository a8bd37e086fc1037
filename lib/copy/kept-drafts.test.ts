import { describe, expect, it } from "vitest";
import {
  draftKey,
  forgetDraft,
  isSectionDrafts,
  isStringRecords,
  keepDraft,
  leavesPage,
  readDraft,
  type DraftStorage,
} from "./kept-drafts";

function memory(): DraftStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

const isCopy = isStringRecords(["context", "review"]);

describe("drafts kept in the browser", () => {
  it("are kept per project, editor and base version, and read back as typed", () => {
    const storage = memory();
    const key = draftKey("copy", "demo", "cv-1");
    expect(key).toBe("cuescope:draft:copy:demo:cv-1");
    expect(draftKey("policy", "demo", null)).toBe("cuescope:draft:policy:demo:built-in");
    const draft = { context: { "*": "C {percent}%" }, review: { "*": "R" } };
    keepDraft(storage, key, draft, new Date("2026-12-01T10:00:00Z"));
    expect(readDraft(storage, key, isCopy)).toEqual({ savedAt: "2026-12-01T10:00:00.000Z", draft });
    expect(readDraft(storage, draftKey("copy", "other", "cv-1"), isCopy)).toBeNull();
    forgetDraft(storage, key);
    expect(readDraft(storage, key, isCopy)).toBeNull();
  });

  it.each([
    ["not JSON", "{"],
    ["no time", JSON.stringify({ draft: { context: {}, review: {} } })],
    ["a key missing", JSON.stringify({ savedAt: "x", draft: { context: {} } })],
    ["a template not text", JSON.stringify({ savedAt: "x", draft: { context: { "*": 3 }, review: {} } })],
  ])("a kept draft that does not read (%s) is forgotten", (_name, text) => {
    const storage = memory();
    storage.setItem("k", text);
    expect(readDraft(storage, "k", isCopy)).toBeNull();
    expect(storage.items.has("k")).toBe(false);
  });

  it("a policy draft's shape is checked section by section", () => {
    const isPolicy = isSectionDrafts(["time"]);
    expect(isPolicy({ time: { on: true, values: { limitMs: "30" } } })).toBe(true);
    expect(isPolicy({ time: { on: "yes", values: {} } })).toBe(false);
    expect(isPolicy({})).toBe(false);
  });

  it("storage that throws (switched off, full) loses drafts quietly", () => {
    const broken: DraftStorage = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    expect(() => keepDraft(broken, "k", {}, new Date())).not.toThrow();
    expect(readDraft(broken, "k", isCopy)).toBeNull();
  });
});

describe("which link clicks leave the editor", () => {
  const plain = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false };
  const here = "http://cuescope.test/copy?from=cv-1";
  const link = (href: string, more: Partial<{ target: string; download: boolean }> = {}) => ({
    href,
    target: "",
    download: false,
    ...more,
  });
  it.each<[string, Parameters<typeof leavesPage>[0], ReturnType<typeof link>, boolean]>([
    ["another page", plain, link("/runs"), true],
    ["the same page with another version", plain, link("/copy?from=cv-2"), true],
    ["an anchor on this page", plain, link("/copy?from=cv-1#changes"), false],
    ["a new tab (ctrl)", { ...plain, ctrlKey: true }, link("/runs"), false],
    ["a middle click", { ...plain, button: 1 }, link("/runs"), false],
    ["target _blank", plain, link("/runs", { target: "_blank" }), false],
    ["a download", plain, link("/api/v1/export", { download: true }), false],
    ["another site", plain, link("https://example.com/"), false],
  ])("%s", (_name, click, target, leaves) => {
    expect(leavesPage(click, target, here)).toBe(leaves);
  });
});
