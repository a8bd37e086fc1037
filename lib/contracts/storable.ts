import { ZEvent, type TEvent } from "./events";
import { dottedPath, problemsFrom, type TProblem } from "./issues";
import { isStorableString, unstorableStringReason } from "./primitives";

/**
 * How deeply objects and arrays may nest in one event, the event itself counting as level 1
 * (`{"body": {"policy": {"requests": {"stages": [..]}}}}` is 5 levels). Checked without recursion
 * before anything recursive (validation, hashing, JSON encoding, jsonb) sees the value.
 */
export const MAX_EVENT_DEPTH = 32;

/**
 * The first reason the raw JSON value of an event cannot be stored, or null: nesting deeper than
 * MAX_EVENT_DEPTH, or a string — value or property name, anywhere, unknown properties included —
 * holding U+0000 or a lone surrogate. Iterative, so any depth of input is safe to check.
 */
export function unstorableProblem(raw: unknown): TProblem | null {
  return isStorable(raw, 1) ? null : firstUnstorable(raw);
}

/**
 * The common case, fast: whether every string (values and property names) is storable and
 * objects and arrays nest at most MAX_EVENT_DEPTH levels (`depth` is the level of `value`). It
 * allocates nothing; it recurses no deeper than MAX_EVENT_DEPTH + 1 levels, whatever the input.
 */
function isStorable(value: unknown, depth: number): boolean {
  if (typeof value === "string") return isStorableString(value);
  if (value === null || typeof value !== "object") return true;
  if (depth > MAX_EVENT_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isStorable(value[i], depth + 1)) return false;
    return true;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (!isStorableString(keys[i]) || !isStorable((value as Record<string, unknown>)[keys[i]], depth + 1)) return false;
  }
  return true;
}

/** The first problem in a value isStorable refused, with its path, iteratively (any depth is safe). */
function firstUnstorable(raw: unknown): TProblem | null {
  interface Frame {
    value: unknown;
    depth: number;
    parent: Frame | null;
    key: PropertyKey | null;
  }
  const pathOf = (frame: Frame, last?: PropertyKey): string => {
    const parts: PropertyKey[] = last === undefined ? [] : [last];
    for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) parts.push(f.key);
    return dottedPath(parts.reverse());
  };
  const stack: Frame[] = [{ value: raw, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (typeof value === "string") {
      const problem = unstorableStringReason(value);
      if (problem) return { path: pathOf(frame), message: `string ${problem}` };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth > MAX_EVENT_DEPTH) {
      return {
        path: pathOf(frame),
        message: `nested too deeply: objects and arrays may nest at most ${MAX_EVENT_DEPTH} levels in an event`,
      };
    }
    const children: Frame[] = [];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) children.push({ value: value[i], depth: depth + 1, parent: frame, key: i });
    } else {
      for (const key of Object.keys(value)) {
        const problem = unstorableStringReason(key);
        if (problem) return { path: pathOf(frame, key), message: `property name ${problem}` };
        children.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: frame, key });
      }
    }
    // Depth-first in document order: the first problem reported is the first in the text.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return null;
}

export type TEventCheck = { ok: true; event: TEvent } | { ok: false; problems: TProblem[] };

/**
 * The one contract check of a raw event (contract §4 plus what storage needs), shared by the ingestion
 * service and the rebuild command: storable (depth, strings) first, then the event schema
 * (types, ranges, instants). Unknown extra properties are dropped: `event` is what is stored.
 */
export function checkEvent(raw: unknown): TEventCheck {
  const unstorable = unstorableProblem(raw);
  if (unstorable) return { ok: false, problems: [unstorable] };
  const parsed = ZEvent.safeParse(raw);
  return parsed.success ? { ok: true, event: parsed.data } : { ok: false, problems: problemsFrom(parsed.error) };
}
