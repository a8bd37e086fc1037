import { COMPONENT_PREFIX, type JsonSchema } from "./schemas";

/**
 * A JSON schema as the reference page lists it: one row per field, nested fields indented under
 * their parent, a named schema (`$ref`) shown as a link to its own section instead of expanded.
 */
export interface FieldRow {
  /** The field's name; for a variant of a union, how it is told apart (`type = "run.started"`). */
  name: string;
  depth: number;
  /** The type in words: `string`, `integer | null`, `array of RunListItem`, `"a" | "b"`. */
  type: string;
  /** The named schemas the type mentions, for links. */
  refs: string[];
  required: boolean;
  /** The schema's description, its bounds and its default. */
  details: string[];
}

/** Depth beyond which nested fields are not listed (none of the contracts nests this deep). */
const MAX_DEPTH = 12;

/** The name of a named schema from its `$ref`. */
export function refName(ref: string): string {
  return ref.startsWith(COMPONENT_PREFIX) ? ref.slice(COMPONENT_PREFIX.length) : ref;
}

/** The rows of an object schema's fields (or of a union's variants); none for a scalar. */
export function fieldRows(schema: JsonSchema, depth = 0): FieldRow[] {
  if (depth > MAX_DEPTH) return [];
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties) {
    const required = new Set((schema.required ?? []) as string[]);
    return Object.entries(properties).flatMap(([name, field]) => [
      { name, depth, ...describeType(field), required: required.has(name), details: details(field) },
      ...fieldRows(expandable(field), depth + 1),
    ]);
  }
  const variants = unionBranches(schema);
  if (variants && !variants.every(isSimple)) {
    return variants.flatMap((variant, i) => [
      { name: variantName(variant, i), depth, ...describeType(variant), required: false, details: ["one of the variants"] },
      ...fieldRows(variant, depth + 1),
    ]);
  }
  if (schema.type === "array" && schema.items) return fieldRows(expandable(schema.items as JsonSchema), depth);
  return [];
}

/** The part of a field whose own fields are listed under it: an object, an array's items, a map's values. */
function expandable(field: JsonSchema): JsonSchema {
  if (field.$ref) return {};
  if (field.type === "array" && field.items) return expandable(field.items as JsonSchema);
  const branches = unionBranches(field);
  if (branches) {
    const nonNull = branches.filter((b) => b.type !== "null");
    return nonNull.length === 1 ? expandable(nonNull[0]) : field;
  }
  if (!field.properties && typeof field.additionalProperties === "object") return expandable(field.additionalProperties as JsonSchema);
  return field;
}

function unionBranches(schema: JsonSchema): JsonSchema[] | undefined {
  return (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
}

/** A schema whose type fits in words, without fields of its own to list. */
function isSimple(schema: JsonSchema): boolean {
  if (schema.$ref || schema.type === "null") return true;
  if (schema.properties || unionBranches(schema)) return false;
  if (schema.type === "array") return isSimple((schema.items ?? {}) as JsonSchema);
  return true;
}

function variantName(variant: JsonSchema, index: number): string {
  const properties = (variant.properties ?? {}) as Record<string, JsonSchema>;
  const tag = Object.entries(properties).find(([, field]) => field.const !== undefined);
  return tag ? `${tag[0]} = ${JSON.stringify(tag[1].const)}` : `variant ${index + 1}`;
}

/** A field's type in words, and the named schemas it mentions. */
export function describeType(schema: JsonSchema): { type: string; refs: string[] } {
  if (typeof schema.$ref === "string") {
    const name = refName(schema.$ref);
    return { type: name, refs: [name] };
  }
  if (schema.const !== undefined) return { type: JSON.stringify(schema.const), refs: [] };
  if (Array.isArray(schema.enum)) return { type: schema.enum.map((v) => JSON.stringify(v)).join(" | "), refs: [] };
  const branches = unionBranches(schema);
  if (branches) {
    const nonNull = branches.filter((branch) => branch.type !== "null");
    if (nonNull.length === 1 && branches.length === 2) {
      const inner = describeType(nonNull[0]);
      return { type: `${inner.type} | null`, refs: inner.refs };
    }
    const parts = branches.map(describeType);
    const simple = branches.every(isSimple);
    return { type: simple ? parts.map((p) => p.type).join(" | ") : `one of ${branches.length}`, refs: parts.flatMap((p) => p.refs) };
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  const words = types.map((type) => {
    if (type === "array") {
      const items = describeType((schema.items ?? {}) as JsonSchema);
      return { type: `array of ${items.type}`, refs: items.refs };
    }
    if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object") {
      const values = describeType(schema.additionalProperties as JsonSchema);
      const keys = (schema.propertyNames as JsonSchema | undefined)?.enum as string[] | undefined;
      return { type: `map${keys ? ` (keys: ${keys.join(", ")})` : ""} of ${values.type}`, refs: values.refs };
    }
    return { type, refs: [] as string[] };
  });
  if (words.length === 0) return { type: "any", refs: [] };
  return { type: words.map((w) => w.type).join(" | "), refs: words.flatMap((w) => w.refs) };
}

/** What else a field says: its description, bounds and default. */
export function details(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (typeof schema.description === "string") out.push(schema.description);
  const min = schema.minLength ?? schema.minItems;
  const max = schema.maxLength ?? schema.maxItems;
  const unit = schema.minItems !== undefined || schema.maxItems !== undefined ? "items" : "characters";
  if (min !== undefined && max !== undefined) out.push(`${min}–${max} ${unit}`);
  else if (min !== undefined) out.push(`at least ${min} ${unit}`);
  else if (max !== undefined) out.push(`at most ${max} ${unit}`);
  const big = (n: unknown) => typeof n === "number" && Math.abs(n) >= Number.MAX_SAFE_INTEGER;
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined && !big(schema.maximum)) out.push(`≤ ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) out.push(`< ${schema.exclusiveMaximum}`);
  if (schema.format !== undefined) out.push(`format ${schema.format}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}
