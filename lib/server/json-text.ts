/**
 * JSON text kept beside an answer object that a cache holds, so a route sends a cached answer as it
 * was first encoded instead of encoding it again on every hit: a run's whole timeline is 200–400 kB
 * of JSON, asked for by every reader of the run's page. The text lives as long as its object (a
 * WeakMap); a kept object must not be changed afterwards (cached answers never are).
 */
const texts = new WeakMap<object, string>();

/** Encodes `value` once and keeps the text with it; returns the text. */
export function keepJsonText(value: object): string {
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}

/** The JSON text of an answer: the one kept with it, else encoded now. */
export function jsonTextOf(value: unknown): string {
  return (typeof value === "object" && value !== null ? texts.get(value) : undefined) ?? JSON.stringify(value);
}
