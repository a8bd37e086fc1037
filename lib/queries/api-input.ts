/**
 * What an API read asks for, as its route reads it: the path's parameters (decoded; a run id as
 * itself, never as the `~` placeholder) and the query string's values. The browser's fetch URL is
 * built from it, and a page's server prefetch hands the very same input to the read's loader
 * (lib/server/loaders), which parses it with the route's schemas: both sides get the same defaults.
 */
export interface ApiInput {
  path: Record<string, string>;
  query: Record<string, string>;
}

/**
 * Query-string values from defined, non-empty values, keys sorted, each written as text (a flag as
 * `1`, the way the contracts read it): exactly what the route's `queryOf` reads back from the URL.
 */
export function queryInput(values: Record<string, string | number | boolean | undefined | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(values).sort()) {
    const value = values[key];
    if (value === undefined || value === null || value === "" || value === false) continue;
    out[key] = value === true ? "1" : String(value);
  }
  return out;
}
