import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contrastRatio } from "@/lib/format/contrast";

// WCAG 2.2 AA contrast of the colour tokens in app/globals.css, in both themes: every text token on
// every background token reaches 4.5:1, text on a filled accent or severity badge too, and the chart
// lines that carry meaning 3:1 against the plot. A token edited below that fails here, not in a
// reader's eyes (the e2e axe spec, e2e/a11y.spec.ts, checks the rendered pages as well).

const globals = readFileSync("app/globals.css", "utf8");

function tokens(selector: string): Record<string, string> {
  const start = globals.indexOf(`${selector} {`);
  expect(start, `${selector} in app/globals.css`).toBeGreaterThanOrEqual(0);
  const body = globals.slice(start + selector.length + 2, globals.indexOf("}", start)).replace(/\/\*[\s\S]*?\*\//g, "");
  const out: Record<string, string> = {};
  for (const [, name, value] of body.matchAll(/--([\w-]+):\s*([^;]+);/g)) out[name] = value.trim();
  return out;
}

const light = tokens(":root");
const themes = { light, dark: { ...light, ...tokens(':root[data-theme="dark"]') } };

const BACKGROUNDS = ["bg", "surface", "surface-2", "code-bg", "accent-soft"];
const TEXT = [
  "text",
  "text-muted",
  "text-faint",
  "accent",
  "brand-ink",
  "st-delivered",
  "st-dropped",
  "st-failed",
  "st-uncertain",
  "st-pending",
  "st-live",
];
/** Filled badges and buttons: `--on-accent` text on these. */
const FILLS = ["accent", "st-delivered", "st-dropped", "st-failed", "st-uncertain", "st-pending", "st-live"];
/** Chart marks and lines that carry meaning (the grid does not), drawn on the panel's surface. */
const CHART_LINES = ["chart-series", "chart-limit", "chart-threshold", "chart-compaction", "chart-selected", ...TEXT.slice(5)];

describe.each(Object.entries(themes))("%s theme tokens", (_, theme) => {
  const color = (name: string): string => {
    expect(theme[name], `--${name}`).toMatch(/^#[0-9a-f]{6}$/i);
    return theme[name];
  };
  const failing = (pairs: [string, string][], minimum: number) =>
    pairs
      .map(([fg, bg]) => ({ pair: `--${fg} on --${bg}`, ratio: Math.round(contrastRatio(color(fg), color(bg)) * 100) / 100 }))
      .filter(({ ratio }) => ratio < minimum);

  it("text tokens reach 4.5:1 on every background", () => {
    expect(
      failing(
        TEXT.flatMap((fg) => BACKGROUNDS.map((bg) => [fg, bg] as [string, string])),
        4.5,
      ),
    ).toEqual([]);
  });

  it("text on filled accent and severity badges reaches 4.5:1", () => {
    expect(
      failing(
        FILLS.map((fill) => ["on-accent", fill] as [string, string]),
        4.5,
      ),
    ).toEqual([]);
  });

  it("chart lines and marks reach 3:1 against the plot", () => {
    expect(
      failing(
        CHART_LINES.flatMap((fg) => ["surface", "bg"].map((bg) => [fg, bg] as [string, string])),
        3,
      ),
    ).toEqual([]);
  });
});

describe("contrastRatio", () => {
  it("is 21 for black on white, 1 for a colour on itself, and symmetric", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#fff", "#000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#8a93a0", "#8a93a0")).toBe(1);
    // The old muted grey and orange the issue measured: 3.1:1 and 4.0:1 on white.
    expect(contrastRatio("#8a93a0", "#ffffff")).toBeCloseTo(3.11, 2);
    expect(contrastRatio("#ffffff", "#b86e00")).toBeCloseTo(3.99, 2);
  });

  it("rejects what is not an opaque hex colour", () => {
    expect(() => contrastRatio("rgb(0 0 0)", "#fff")).toThrow(/not an opaque/);
  });
});
