import { describe, expect, it } from "vitest";
import { ZEvent, ZRunDecisions } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { ENDPOINTS } from "@/lib/endpoints";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { buildOpenApiDocument, errorStatuses, type OpenApiOperation } from "./document";
import { checkJsonSchema, resolveRef } from "./json-schema-check";
import type { JsonSchema } from "./schemas";

const doc = buildOpenApiDocument();
const root = doc as unknown as JsonSchema;

/** Every `$ref` anywhere in a value. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") found.push(item);
      else refsIn(item, found);
    }
  }
  return found;
}

function allOperations(): [string, string, OpenApiOperation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [path, method, op] as [string, string, OpenApiOperation]),
  );
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with info, servers, tags and security schemes", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.servers).toEqual([{ url: "/" }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apiKeyHeader", "basicKey", "bearerKey", "sessionCookie"]);
    const tags = new Set(doc.tags.map((tag) => tag.name));
    for (const [, , op] of allOperations()) expect(tags.has(op.tags[0])).toBe(true);
  });

  it("documents every declared endpoint once, under its own method and path (the server serves the same list: lib/server/http/api.test.ts)", () => {
    const documented = allOperations().map(([path, method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`);
    expect(documented.sort()).toEqual(ENDPOINTS.map((e) => `${e.method} ${e.path} ${e.id}`).sort());
    expect(new Set(ENDPOINTS.map((e) => e.id)).size).toBe(ENDPOINTS.length);
  });

  it("resolves every $ref and names the shared schemas", () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) expect(resolveRef(root, ref), ref).toBeDefined();
    for (const name of ["Event", "ApiError", "RunListItem", "RunSummary", "RunDecisions", "RunTimeline", "TurnDetail", "IngestRequest"]) {
      expect(doc.components.schemas).toHaveProperty(name);
    }
    expect(refsIn(doc.components.schemas.IngestRequest)).toContain("#/components/schemas/Event");
  });

  it("has unique operationIds, declares every path parameter and answers each error with the error body", () => {
    const ids = allOperations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, method, op] of allOperations()) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual(inPath);
      expect(declared.every((p) => p.required)).toBe(true);
      const names = (op.parameters ?? []).map((p) => `${p.in}:${p.name}`);
      expect(new Set(names).size).toBe(names.length);
      expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description, `${method} ${path} ${status}`).not.toBe("");
        if (Number(status) >= 400 && op.operationId !== "getHealth") {
          expect(response.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/ApiError" });
        }
      }
    }
  });

  it("lists the errors an operation's shape implies", () => {
    const byId = Object.fromEntries(ENDPOINTS.map((op) => [op.id, op]));
    expect(errorStatuses(byId.ingestEvents)).toEqual([400, 401, 403, 413, 415, 429, 503]);
    // 403 wherever a key is needed: a key whose scope does not allow the endpoint.
    expect(errorStatuses(byId.getRunSummary)).toEqual([400, 401, 403, 404, 409, 429, 503]);
    expect(errorStatuses(byId.getRunFacets)).toEqual([401, 403, 429, 503]);
    expect(errorStatuses(byId.getOpenApiDocument)).toEqual([]);
    expect(errorStatuses(byId.otlpExportTraces)).toEqual([400, 401, 403, 413, 415, 429, 503]);
    expect(doc.paths["/api/v1/otlp/v1/traces"].post.security).toEqual([{ bearerKey: [] }, { apiKeyHeader: [] }, { basicKey: [] }]);
    expect(Object.keys(doc.paths["/api/v1/otlp/v1/logs"].post.requestBody!.content)).toEqual([
      "application/x-protobuf",
      "application/json",
    ]);
    expect(doc.paths["/api/v1/health"].get.security).toEqual([]);
    expect(doc.paths["/api/v1/runs"].get.security).toEqual([{ bearerKey: [] }, { sessionCookie: [] }]);
  });

  it("documents query parameters as a URL writes them, with the contracts' defaults", () => {
    const limit = doc.paths["/api/v1/runs"].get.parameters?.find((p) => p.name === "limit");
    expect(limit).toMatchObject({ in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 200, default: 50 } });
    const format = doc.paths["/api/v1/reviewer/candidates/export"].get.parameters?.find((p) => p.name === "format");
    expect(format?.schema).toMatchObject({ enum: ["csv", "json"], default: "csv" });
  });
});

describe("the telemetry fields explain themselves", () => {
  /** Dotted paths of the fields under a schema (following local $refs) that carry no description. */
  function undescribed(schema: JsonSchema, path: string, seen = new Set<string>()): string[] {
    if (typeof schema.$ref === "string") {
      if (seen.has(schema.$ref)) return [];
      return undescribed(resolveRef(root, schema.$ref) ?? {}, path, new Set([...seen, schema.$ref]));
    }
    const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
    if (branches) return branches.flatMap((branch) => undescribed(branch, path, seen));
    if (schema.type === "array" && schema.items) return undescribed(schema.items as JsonSchema, `${path}[]`, seen);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    return Object.entries(properties).flatMap(([name, field]) => {
      const here = `${path}.${name}`;
      const missing = field.description || field.const !== undefined || field.$ref ? [] : [here];
      return [...missing, ...undescribed(field, here, seen)];
    });
  }

  it("every field of every event type, down to the recorded reminders, has a description", () => {
    const missing = undescribed(doc.components.schemas.Event, "Event").filter((path) => !/\.body\.(policy|copy)\./.test(path));
    expect([...new Set(missing)]).toEqual([]);
  });
});

describe("the documented schemas accept what the contracts accept", () => {
  const run = generateEtfRun({ runId: "openapi-etf", seed: 3, turns: 40, anomalies: true });

  it("every generated demo event validates against Event, and the batch against IngestRequest", () => {
    const event = doc.components.schemas.Event;
    const types = new Set<string>();
    for (const raw of run.events) {
      types.add(raw.type);
      expect(checkJsonSchema(event, raw, root), raw.id).toEqual([]);
    }
    expect(types.size).toBeGreaterThan(8);
    expect(checkJsonSchema(doc.components.schemas.IngestRequest, { batch: run.events.slice(0, 100) }, root)).toEqual([]);
  });

  it("an event the contract refuses is refused by the schema too", () => {
    const event = doc.components.schemas.Event;
    const [first] = run.events;
    for (const bad of [{ ...first, type: "run.unknown" }, { ...first, id: "" }, { ...first, runId: undefined }, "an event"]) {
      expect(ZEvent.safeParse(bad).success).toBe(false);
      expect(checkJsonSchema(event, bad, root)).not.toEqual([]);
    }
  });

  it("a rebuilt run's decisions validate against RunDecisions", () => {
    const decisions = ZRunDecisions.parse(JSON.parse(JSON.stringify(rebuild(run.events.map((e) => ZEvent.parse(e))))));
    expect(checkJsonSchema(doc.components.schemas.RunDecisions, decisions, root)).toEqual([]);
  });
});
