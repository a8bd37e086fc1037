import type { CookieJar } from "@/lib/server/auth/sign-in";

/** A browser's cookie jar for the sign-in flows' tests: the values set, and the options each was set with. */
export function cookieJar(): CookieJar & { values: Map<string, string>; options: Map<string, unknown> } {
  const values = new Map<string, string>();
  const options = new Map<string, unknown>();
  return {
    values,
    options,
    get: (name) => (values.has(name) ? { value: values.get(name)! } : undefined),
    set: (name, value, opts) => {
      values.set(name, value);
      options.set(name, opts);
    },
    delete: (name) => values.delete(name),
  };
}
