import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiRunPath, decodeSegment, replayTurnPath, runIdFromRoute, runPath, runTurnPath } from "./paths";

const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

/** What a browser does to a path before sending it: resolve it against the origin. */
const sent = (path: string) => new URL(path, "http://cuescope.test");

/** The run id a page reads back from a URL it was opened with (segment still encoded). */
function pageRead(path: string): string | null {
  const url = sent(path);
  const segment = url.pathname.split("/")[2];
  return runIdFromRoute(segment, url.searchParams, { decode: true });
}

/** The run id an API route reads back (Next.js decodes route handler params). */
function apiRead(path: string): string | null {
  const url = sent(path);
  const segment = decodeURIComponent(url.pathname.split("/")[4]);
  return runIdFromRoute(segment, url.searchParams, { decode: false });
}

describe("run paths", () => {
  it("keeps every printable ASCII character and non-ASCII text inside one segment", () => {
    for (const id of [
      PRINTABLE_ASCII,
      "run with space",
      "ünïcødé-运行-🚀",
      "a%2Fb",
      "%",
      "?x=1#y",
      ": % + ; & = , @ $ <",
      "a/b",
      "...",
      "~",
    ]) {
      const path = runPath(id);
      expect(sent(path).pathname.split("/")).toHaveLength(3);
      expect(pageRead(path)).toBe(id);
      expect(apiRead(apiRunPath(id, "/timeline", { from: 3 }))).toBe(id);
    }
  });

  it("sends `.` and `..` as `~?runId=`, since no path segment can be them", () => {
    expect(runPath("..")).toBe("/runs/~?runId=..");
    expect(runTurnPath(".", 4)).toBe("/runs/~?runId=.&turn=4");
    expect(pageRead(runPath(".."))).toBe("..");
    expect(apiRead(apiRunPath(".", "/turns/2"))).toBe(".");
    expect(apiRunPath("..", "/timeline", { to: 9, from: 1 })).toBe("/api/v1/runs/~/timeline?runId=..&from=1&to=9");
    // A run really named `~` keeps its plain path; `?runId=` names only the dot ids.
    expect(pageRead("/runs/~")).toBe("~");
    expect(pageRead("/runs/~?runId=other")).toBe("~");
  });

  it("adds view parameters after the id, and builds replay turn paths the same way", () => {
    expect(runTurnPath("a b", 7)).toBe("/runs/a%20b?turn=7");
    expect(runPath("r", { turn: 3, from: undefined, to: "" })).toBe("/runs/r?turn=3");
    expect(replayTurnPath("job 1", "a/b", 2)).toBe("/copy/replay/job%201/runs/a%2Fb/turns/2");
    expect(replayTurnPath("j", "..", 2)).toBe("/copy/replay/j/runs/~/turns/2?runId=..");
  });

  it("decodes a page segment exactly once", () => {
    expect(decodeSegment("a%252Fb")).toBe("a%2Fb");
    expect(decodeSegment("a%ZZ")).toBeNull();
  });

  it("round-trips any run id of 1-128 characters through the page and the API", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", minLength: 1, maxLength: 128 }), (id) => {
        fc.pre(!/\p{Surrogate}/u.test(id));
        expect(pageRead(runPath(id, { turn: 1 }))).toBe(id);
        expect(apiRead(apiRunPath(id))).toBe(id);
      }),
      { numRuns: 500 },
    );
  });
});

describe("a run whose id is export", () => {
  it("travels as the placeholder, since /api/v1/runs/export is the runs export", () => {
    expect(apiRunPath("export")).toBe("/api/v1/runs/~?runId=export");
    expect(runPath("export", { turn: 3 })).toBe("/runs/~?runId=export&turn=3");
    expect(runIdFromRoute("~", new URLSearchParams("runId=export"), { decode: false })).toBe("export");
    expect(runIdFromRoute("~", new URLSearchParams("runId=other"), { decode: false })).toBe("~");
  });
});
