import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api-docs/document";
import { checkJsonSchema } from "@/lib/api-docs/json-schema-check";
import { PYTHON_SCHEMA_PATH, pythonEventSchema, pythonEventSchemaText } from "@/scripts/lib/python-schema";

// The Python SDK validates events with packages/python/cuescope/event_schema.json, generated from
// the API reference's Event schema. A contract change without `npm run sdk:python-schema` would ship
// a package whose checks are older than the server's: this test fails then.
describe("packages/python/cuescope/event_schema.json", () => {
  it("is what `npm run sdk:python-schema` writes now (not older than the server's schema)", async () => {
    const shipped = readFileSync(PYTHON_SCHEMA_PATH, "utf8");
    const fresh = await pythonEventSchemaText();
    expect(shipped, "the Python package's event schema is stale: run `npm run sdk:python-schema` and commit the file").toBe(fresh);
  });

  it("holds the Event schema of the served API reference (/api/v1/openapi.json)", () => {
    const { $schema: _s, $comment: _c, title: _t, $defs: _d, ...event } = pythonEventSchema();
    const served = openApiDocument().components.schemas.Event as Record<string, unknown>;
    // References to other components are moved under $defs; the Event's own keywords are the served ones.
    const localRefs = JSON.parse(JSON.stringify(served).replaceAll('"#/components/schemas/', '"#/$defs/')) as Record<string, unknown>;
    expect(event).toEqual(localRefs);
  });

  it("is self-contained: every $ref resolves within the document", () => {
    const schema = pythonEventSchema();
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object")
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref") refs.push(value as string);
          else walk(value);
        }
    };
    walk(schema);
    for (const ref of refs) expect(ref.startsWith("#/$defs/") && ref.slice(8) in ((schema.$defs ?? {}) as object), ref).toBe(true);
  });

  it("accepts a valid event and rejects an invalid one (a sanity check of the document, by the app's own checker)", () => {
    const schema = pythonEventSchema();
    const event = { id: "e-1", runId: "r-1", type: "request.final", ts: "2026-11-29T10:00:05.120Z", turn: 3, body: { requiredBytes: 10 } };
    expect(checkJsonSchema(schema, event, schema)).toEqual([]);
    expect(checkJsonSchema(schema, { ...event, body: { requiredBytes: -1 } }, schema)).not.toEqual([]);
  });
});
