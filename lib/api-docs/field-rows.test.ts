import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./document";
import { describeType, details, fieldRows } from "./field-rows";

const schemas = buildOpenApiDocument().components.schemas;

describe("the reference page's field rows", () => {
  it("lists nested fields under their parent, with types in words", () => {
    const rows = fieldRows(schemas.IngestResponse).map((r) => [r.depth, r.name, r.type, r.required]);
    expect(rows).toEqual([
      [0, "results", "array of object", true],
      [1, "id", "string | null", true],
      [1, "status", '"created" | "duplicate" | "error"', true],
      [1, "error", "object", false],
      [2, "path", "string", true],
      [2, "message", "string", true],
      [0, "summary", "object", true],
      [1, "created", "number", true],
      [1, "duplicate", "number", true],
      [1, "error", "number", true],
    ]);
  });

  it("links a named schema instead of expanding it, and names a union's variants by their tag", () => {
    const batch = fieldRows(schemas.IngestRequest);
    expect(batch).toHaveLength(1);
    expect(batch[0]).toMatchObject({ name: "batch", type: "array of Event", refs: ["Event"], details: ["at most 1000 items"] });
    const variants = fieldRows(schemas.Event).filter((r) => r.depth === 0);
    expect(variants.map((r) => r.name)).toContain('type = "run.started"');
    expect(variants).toHaveLength(16);
  });

  it("puts nullable objects, maps and bounds in words", () => {
    expect(describeType({ anyOf: [{ type: "object", properties: {} }, { type: "null" }] }).type).toBe("object | null");
    expect(describeType({ type: "object", additionalProperties: { type: "number" } }).type).toBe("map of number");
    expect(details({ type: "integer", minimum: 1, maximum: 200, default: 50 })).toEqual(["≥ 1", "≤ 200", "default 50"]);
    expect(details({ type: "string", minLength: 1, maxLength: 128 })).toEqual(["1–128 characters"]);
  });
});
