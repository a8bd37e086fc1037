/**
 * Comment rendering (lib/markdown/markdown.ts, docs/comments.md#safety) on pathological input: each
 * shape repeated to 10k, 20k and 40k characters. A linear renderer takes ~4× as long for 4× the
 * text; the target is the 40k/10k ratio ≤ 5× for every shape (the hand-written renderer it replaced
 * took 0.3–1.2 s for 10k characters of `*[_a `, and grew quadratically). Times are CPU time, the
 * best of the rounds, sizes interleaved within a round, so other work on the machine inflates them
 * the least; the ratio is of one run (no test asserts a time). What takes a 40k text above 4× is
 * V8's memory management rather than the parse: the garbage collector's share grows with the live
 * token list (a CPU profile of 4M characters: 0.5 s of GC in 10k texts, 9.5 s in 40k texts), and
 * markdown-it's per-line arrays pass V8's large-object size past ~16k lines (building them takes
 * 0.09 ms for 5k lines, 5–6 ms for 20k).
 */
import { renderMarkdown } from "@/lib/markdown/markdown";
import { collectGarbage, fmt, table, verdict, type BenchContext, type BenchSection } from "./common";

const SIZES = [10_000, 20_000, 40_000] as const;
const TARGET_RATIO = 5;

/** The shapes that make naive Markdown parsers quadratic (delimiter and bracket runs that never close, and so on). */
const SHAPES: readonly [string, string][] = [
  ["`*[_a ` repeated (the reported one)", "*[_a "],
  ["nested `[`", "["],
  ["`[a` (labels never closed)", "[a"],
  ["`[(` (links never closed)", "[("],
  ["`*` run (after a letter: not a rule)", "*"],
  ["`_` run (after a letter: not a rule)", "_"],
  ["`***a ` (openers and closers)", "***a "],
  ["`_a_` (intraword)", "_a_"],
  ["`**a` (openers only)", "**a"],
  ["backticks of growing length", "`a``b"],
  ["`` `a `` (code spans never closed)", "`a"],
  ["`<` run", "<"],
  ["`<a` (tags never closed)", "<a"],
  ["`&#` (entities never closed)", "&#"],
  ["`\\` run", "\\"],
  ["`> ` nested quotes", "> "],
  ["`> - ` nested containers", "> - "],
  ["`- a` lines (one long list)", "- a\n"],
  ["`a` lines (one paragraph of breaks)", "a\n"],
];

/**
 * `pattern` repeated to exactly `length` characters (after an "a", so that a run of `*`, `_` or `-`
 * is inline text, not a thematic break), as one flat string (as a body read from a request is).
 */
function repeated(pattern: string, length: number): string {
  return Buffer.from(`a${pattern.repeat(Math.ceil(length / pattern.length))}`.slice(0, length)).toString();
}

function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export function markdownSection(): BenchSection {
  return {
    name: "markdown",
    description: `comment rendering on pathological input: ${SIZES.map((n) => `${n / 1000}k`).join(", ")} characters, 40k/10k ≤ ${TARGET_RATIO}×`,
    run,
  };
}

function run(ctx: BenchContext): void {
  const rounds = Math.max(ctx.repeats, 5);
  const rows: string[][] = [];
  let worst = 0;
  for (const [name, pattern] of SHAPES) {
    ctx.progress(`markdown: ${name}`);
    const inputs = SIZES.map((n) => repeated(pattern, n));
    for (const input of inputs) renderMarkdown(input); // warm up
    collectGarbage();
    // Each round renders 40k characters per size (4 × 10k, 2 × 20k, 1 × 40k), so each size's time covers the same work.
    const best = SIZES.map(() => Infinity);
    for (let round = 0; round < rounds; round++) {
      inputs.forEach((input, i) => {
        const times = SIZES[SIZES.length - 1] / SIZES[i];
        best[i] = Math.min(
          best[i],
          cpuMs(() => {
            for (let k = 0; k < times; k++) renderMarkdown(input);
          }) / times,
        );
      });
    }
    const ratio = best[2] / best[0];
    worst = Math.max(worst, ratio);
    rows.push([name, ...best.map(fmt.ms), `${fmt.ratio(ratio)}×`, verdict(ratio, TARGET_RATIO)]);
  }
  ctx.print(table(["shape", ...SIZES.map((n) => `${n / 1000}k ms`), "40k/10k", `≤ ${TARGET_RATIO}×`], rows));
  ctx.print(`worst ratio ${fmt.ratio(worst)}× (linear: 4×) — ${verdict(worst, TARGET_RATIO)}`);
}
