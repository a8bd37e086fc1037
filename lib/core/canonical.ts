/**
 * A JSON text for a value with object keys sorted, so two values that are "the same JSON value"
 * (key order aside) give the same text: each object's keys in code-unit order, a key whose value
 * is undefined left out, undefined in an array written as null, anything else as JSON.stringify
 * writes it.
 *
 * Fast path: a part whose objects already list their keys in that order (most event bodies) is
 * written by one native JSON.stringify, which then gives exactly the same text; only the parts
 * that are not are built key by key.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (isCanonicalAlready(value)) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      out += (i > 0 ? "," : "") + (item === undefined ? "null" : canonicalJson(item));
    }
    return out + "]";
  }
  const keys = Object.keys(value).sort();
  let out = "";
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out += `${out ? "," : ""}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `{${out}}`;
}

/**
 * Whether JSON.stringify writes `value` exactly as canonicalJson does: plain objects and arrays
 * only (no toJSON, no boxed values), every object's own keys already in code-unit order
 * (JSON.stringify writes them in Object.keys order), and no value JSON.stringify would drop from
 * an object while canonicalJson writes null (functions, symbols). Recursion is bounded by the
 * value's depth, as canonicalJson's own.
 */
function isCanonicalAlready(value: unknown): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
    case "undefined":
      return true;
    case "object":
      break;
    default:
      return false;
  }
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!isCanonicalAlready(value[i])) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1] < keys[i])) return false;
    if (!isCanonicalAlready((value as Record<string, unknown>)[keys[i]])) return false;
  }
  return true;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}
