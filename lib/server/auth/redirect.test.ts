import { describe, expect, it } from "vitest";
import { DEFAULT_NEXT, safeNextPath } from "./redirect";

const APP = "http://127.0.0.1:3000";

describe("safeNextPath: where sign-in may send the browser", () => {
  it.each([
    ["/runs", "/runs"],
    ["/runs?status=completed&q=a%20b", "/runs?status=completed&q=a%20b"],
    ["/runs/etf%3Aholdings%20overlap", "/runs/etf%3Aholdings%20overlap"],
    ["/copy/replay#top", "/copy/replay#top"],
    ["/reviewer?agent=x", "/reviewer?agent=x"],
    ["/a/../copy", "/copy"],
  ])("keeps the same-origin path %j", (next, expected) => {
    expect(safeNextPath(next, APP)).toBe(expected);
  });

  it.each([
    ["backslash after slash", "/\\evil.com"],
    ["two backslashes", "\\\\evil.com"],
    ["backslash then slash", "/\\/evil.com"],
    ["percent-encoded backslash", "/%5Cevil.com"],
    ["percent-encoded backslash, lower case", "/%5cevil.com"],
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with path", "//evil.com/runs"],
    ["three slashes", "///evil.com"],
    ["tab inside //", "/\t/evil.com"],
    ["newline inside //", "/\n/evil.com"],
    ["carriage return", "/\r/evil.com"],
    ["leading space", " /runs"],
    ["NUL", "/runs\u0000"],
    ["dot segment to //", "/.//evil.com"],
    ["javascript: scheme", "javascript:alert(1)"],
    ["data: scheme", "data:text/html,<script>alert(1)</script>"],
    ["absolute http to elsewhere", "http://evil.com/runs"],
    ["absolute https to elsewhere", "https://evil.com"],
    ["absolute URL with userinfo", "http://127.0.0.1:3000@evil.com/"],
    ["relative path", "runs"],
    ["empty", ""],
    ["the sign-in page itself", "/login"],
    ["not a string", undefined],
    ["very long", `/${"a".repeat(5000)}`],
  ])("falls back to /runs for %s", (_, next) => {
    expect(safeNextPath(next, APP)).toBe(DEFAULT_NEXT);
  });

  it("never returns anything but a single-slash path", () => {
    for (const next of ["/x", "/\\x", "//x", "/%2F/x", "/%2e%2e//x", "/./x", "/..//x"]) {
      const out = safeNextPath(next, APP);
      expect(out.startsWith("/") && !out.startsWith("//")).toBe(true);
      expect(new URL(out, APP).origin).toBe(APP);
    }
  });
});
