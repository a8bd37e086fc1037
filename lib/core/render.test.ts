import { describe, expect, it } from "vitest";
import { DEFAULT_COPY } from "./default-copy";
import { fillTemplate, pickTemplate, reminderCost, resolveCopy, templateName, utf8Length } from "./render";

describe("UTF-8 byte cost (R8)", () => {
  it.each([
    ["", 0],
    ["R2: 28/36 requests", 18],
    ["é", 2],
    ["€", 3],
    ["😀", 4],
    ["上下文", 9],
    ["a😀b", 6],
    ["\ud800", 3], // lone surrogate is written as U+FFFD
  ])("%j is %i bytes", (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });

  it("adds one byte for the newline that ends each reminder", () => {
    expect(reminderCost("R2: 28/36 requests")).toBe(19);
    expect(reminderCost("上下文")).toBe(10);
  });
});

describe("placeholders", () => {
  it.each([
    ["{used}/{usable}", { used: 28, usable: 36 }, "28/36"],
    ["{{used}}", { used: 3 }, "{3}"], // other braces are literal
    ["{ used }", { used: 3 }, "{ used }"],
    ["{used2}", { used: 3 }, "{used2}"], // not a placeholder: letters only
    ["{}", {}, "{}"],
    ["free {freeBytes}", { freeBytes: -38 }, "free -38"],
    ["Block {blockId}", { blockId: "b{1}" }, "Block b{1}"],
  ])("%j with %j renders %j", (template, values, text) => {
    expect(fillTemplate(template, values)).toBe(text);
  });
});

describe("template lookup (§5)", () => {
  const templates = { "*": "any", "2": "second", exhausted: "none left" };
  it.each([
    [1, false, "any"],
    [2, false, "second"],
    [2, true, "none left"], // exhausted wins over the exact stage
    [3, true, "none left"],
  ])("stage %i exhausted=%s picks %j", (stage, exhausted, text) => {
    expect(pickTemplate(templates, stage, exhausted)).toBe(text);
  });

  it("falls back to the exact stage, then * when there is no exhausted template", () => {
    expect(pickTemplate({ "*": "any", "2": "second" }, 2, true)).toBe("second");
    expect(pickTemplate({ "*": "any" }, 2, true)).toBe("any");
  });

  it.each([
    [{ "*": "a" }, 2, false, "*"],
    [{ "*": "a", "2": "b" }, 2, false, "2"],
    [{ "*": "a", "2": "b" }, 3, false, "*"],
    [{ "*": "a", "2": "b", exhausted: "c" }, 2, true, "exhausted"],
    [{ "*": "a", "2": "b" }, 2, true, "2"],
  ])("names the template it picks %#", (templates, stage, exhausted, name) => {
    expect(templateName(templates, stage, exhausted)).toBe(name);
    expect(pickTemplate(templates, stage, exhausted)).toBe(templates[name as keyof typeof templates]);
  });

  it("gives the empty text for a draft without a * template (validation refuses such a copy)", () => {
    expect(templateName({ "2": "b" }, 1)).toBe("*");
    expect(pickTemplate({ "2": "b" }, 1)).toBe("");
  });

  it("a run's copy replaces the default key by key, not template by template", () => {
    const copy = resolveCopy({ edits: { "*": "E {blockId}" } });
    expect(copy.edits).toEqual({ "*": "E {blockId}" });
    expect(copy.edits.exhausted).toBeUndefined();
    expect(copy.context).toBe(DEFAULT_COPY.context);
  });

  it("the default copy names every unit and says an exhausted block is a local limit", () => {
    expect(DEFAULT_COPY.requests["*"]).toMatch(/requests/i);
    expect(DEFAULT_COPY.time["*"]).toMatch(/min/);
    expect(DEFAULT_COPY.context["*"]).toMatch(/bytes/);
    expect(DEFAULT_COPY.edits["*"]).toMatch(/edits/);
    expect(DEFAULT_COPY.edits.exhausted).toMatch(/only this block/);
  });
});
