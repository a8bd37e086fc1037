import type { JsonSchema } from "./schemas";

/**
 * A small JSON Schema (2020-12) checker for the keywords z.toJSONSchema writes: `$ref` (within one
 * document), type, const, enum, properties, required, additionalProperties, propertyNames, items,
 * prefixItems, oneOf, anyOf, allOf, and the length, size and range bounds. Other keywords are not
 * checked. Enough for the tests to check that the documented schemas accept what the server sends
 * and takes; not a general validator (the app has none and needs none).
 */
export function checkJsonSchema(schema: JsonSchema, value: unknown, root: JsonSchema, path = "$"): string[] {
  const problems: string[] = [];
  const fail = (message: string) => problems.push(`${path}: ${message}`);

  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    if (!target) return [`${path}: unresolved $ref ${schema.$ref}`];
    problems.push(...checkJsonSchema(target, value, root, path));
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((type) => hasType(value, type))) return [`${path}: expected ${types.join(" or ")}, got ${describe(value)}`];
  }
  if ("const" in schema && !sameJson(schema.const, value)) fail(`expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value)))
    fail(`expected one of ${JSON.stringify(schema.enum)}`);

  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && [...value].length < schema.minLength) fail(`shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === "number" && [...value].length > schema.maxLength) fail(`longer than ${schema.maxLength}`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) fail(`below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) fail(`above ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) fail(`not above ${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) fail(`not below ${schema.exclusiveMaximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) fail(`fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) fail(`more than ${schema.maxItems} items`);
    const prefix = (schema.prefixItems ?? []) as JsonSchema[];
    value.forEach((item, i) => {
      const itemSchema = prefix[i] ?? (schema.items as JsonSchema | undefined);
      if (itemSchema) problems.push(...checkJsonSchema(itemSchema, item, root, `${path}[${i}]`));
    });
  }
  if (isObject(value)) problems.push(...checkObject(schema, value, root, path));

  for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
    const branches = schema[keyword] as JsonSchema[] | undefined;
    if (!branches) continue;
    const results = branches.map((branch) => checkJsonSchema(branch, value, root, path));
    const passing = results.filter((result) => result.length === 0).length;
    if (keyword === "allOf") results.forEach((result) => problems.push(...result));
    if (keyword === "anyOf" && passing === 0) fail(`matches no branch of anyOf (${results.map((r) => r[0]).join("; ")})`);
    if (keyword === "oneOf" && passing !== 1) fail(`matches ${passing} branches of oneOf, not one`);
  }
  return problems;
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, root: JsonSchema, path: string): string[] {
  const problems: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of (schema.required ?? []) as string[]) {
    if (!(name in value)) problems.push(`${path}: missing required ${name}`);
  }
  for (const [name, item] of Object.entries(value)) {
    const at = `${path}.${name}`;
    if (schema.propertyNames) problems.push(...checkJsonSchema(schema.propertyNames as JsonSchema, name, root, `${at} (name)`));
    if (properties[name]) problems.push(...checkJsonSchema(properties[name], item, root, at));
    else if (schema.additionalProperties === false) problems.push(`${at}: not allowed`);
    else if (isObject(schema.additionalProperties)) problems.push(...checkJsonSchema(schema.additionalProperties, item, root, at));
  }
  return problems;
}

/** The schema a local `$ref` (`#/a/b`) points at, or undefined. */
export function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    at = isObject(at) ? at[key] : undefined;
  }
  return isObject(at) ? at : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "null") return value === null;
  if (type === "array") return Array.isArray(value);
  if (type === "object") return isObject(value);
  return typeof value === type;
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
