import { describe, expect, it } from "vitest";
import { preloadedFetches } from "./scale-server";

/** A flight row as Next.js embeds it: the payload JSON-encoded into `self.__next_f.push([1, "…"])`. */
const flightScript = (rows: string) => `<script>self.__next_f.push(${JSON.stringify([1, rows])})</script>`;

describe("preloadedFetches (what the page bench fetches after a page's HTML)", () => {
  it("finds fetch preloads in link tags and in the RSC payload's hints, and nothing else", () => {
    const html =
      `<head><link rel="preload" as="script" href="/_next/static/chunks/a.js"/>` +
      `<link rel="preload" href="/api/v1/runs/a/timeline?from=1&amp;to=5" as="fetch" crossOrigin=""/></head><body>` +
      flightScript(
        `7:I[1,["x"],"default"]\n:HL["/_next/static/chunks/b.css","style"]\n` +
          `:HL["/api/v1/runs/page-5000/timeline","fetch",{"crossOrigin":""}]\nd:["$","div",null,{}]\n`,
      ) +
      flightScript(`:HL["/api/v1/runs/a/timeline?from=1&to=5","fetch"]\n`) +
      `</body>`;
    expect(preloadedFetches(html)).toEqual(["/api/v1/runs/a/timeline?from=1&to=5", "/api/v1/runs/page-5000/timeline"]);
  });

  it("finds none in a page that preloads none", () => {
    expect(preloadedFetches(`<link rel="stylesheet" href="/a.css"/>${flightScript(`:HL["/a.css","style"]\n`)}`)).toEqual([]);
  });
});
