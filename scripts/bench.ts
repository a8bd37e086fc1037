/**
 * `npm run bench [-- --only NAME[,NAME]] [--repeats N] [--sizes SMALL,LARGE] [--requests N]`: runs
 * the bench sections in order and prints a table per section. Timing targets are reported as
 * PASS/MISS; the bench never fails on timing.
 *
 * Sections live in scripts/bench/<name>.ts and export a function returning a BenchSection; add a
 * new one (ingest, HTTP, ...) to `sections` below. A section with parts (scale) also takes
 * `--only NAME-PART`, e.g. `--only scale-reads,scale-live`.
 */
import type { BenchContext, BenchSection } from "./bench/common";
import { ingestSection } from "./bench/ingest";
import { markdownSection } from "./bench/markdown";
import { pageSection } from "./bench/page";
import { rebuildSection } from "./bench/rebuild";
import { replaySection } from "./bench/replay";
import { replayFairnessSection } from "./bench/replay-fairness";
import { scaleSection } from "./bench/scale";
import { trendsSection } from "./bench/trends";
import { parseSizes } from "./bench/scale-options";

interface Args {
  only: string[] | null;
  repeats: number;
  sizes?: [number, number];
  requests?: number;
}

const USAGE =
  "usage: npm run bench -- [--only rebuild,replay,replay-fairness,ingest,page,scale,trends,markdown] [--repeats 7] [--sizes 100k,1M] [--requests 20]\n" +
  "       (--only scale-reads,scale-ingest,scale-replay,scale-live,scale-longrun,scale-decisions,scale-pages runs parts of scale)\n";

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const args: Args = { only: null, repeats: 7 };
  for (let i = 0; i < argv.length; i++) {
    const value = () => argv[++i] ?? fail(`${argv[i - 1]} needs a value`);
    if (argv[i] === "--only") args.only = value().split(",").filter(Boolean);
    else if (argv[i] === "--repeats") args.repeats = Number(value());
    else if (argv[i] === "--requests") args.requests = Number(value());
    else if (argv[i] === "--sizes") {
      try {
        args.sizes = parseSizes(value());
      } catch (error) {
        fail((error as Error).message);
      }
    } else fail(`unknown argument ${JSON.stringify(argv[i])}`);
  }
  if (!Number.isInteger(args.repeats) || args.repeats < 1) fail("--repeats needs an integer >= 1");
  if (args.requests !== undefined && (!Number.isInteger(args.requests) || args.requests < 1)) fail("--requests needs an integer >= 1");
  return args;
}

/** `--only` names → each selected section with its selected parts (undefined: all of them). */
function select(sections: BenchSection[], only: string[] | null): { section: BenchSection; parts?: string[] }[] {
  if (only === null) return sections.map((section) => ({ section }));
  const chosen = new Map<BenchSection, Set<string> | "all">();
  for (const name of only) {
    const section = sections.find((s) => s.name === name || s.parts?.some((part) => `${s.name}-${part}` === name));
    if (!section) {
      const names = sections.flatMap((s) => [s.name, ...(s.parts ?? []).map((part) => `${s.name}-${part}`)]);
      fail(`no section ${name} (have ${names.join(", ")})`);
    }
    const before = chosen.get(section);
    if (name === section.name || before === "all") chosen.set(section, "all");
    else chosen.set(section, new Set([...(before ?? []), name.slice(section.name.length + 1)]));
  }
  return sections
    .filter((s) => chosen.has(s))
    .map((section) => {
      const parts = chosen.get(section)!;
      return { section, parts: parts === "all" ? undefined : section.parts!.filter((p) => parts.has(p)) };
    });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sections = [
    rebuildSection(),
    replaySection(),
    replayFairnessSection(),
    ingestSection(),
    pageSection(),
    scaleSection({ sizes: args.sizes, requests: args.requests }),
    trendsSection(),
    markdownSection(),
  ];
  const selected = select(sections, args.only);
  const tty = process.stderr.isTTY;
  let progressShown = false;
  const ctx: BenchContext = {
    repeats: args.repeats,
    progress(message) {
      if (tty) process.stderr.write(`\r\x1b[K${message}`);
      else process.stderr.write(`${message}\n`);
      progressShown = true;
    },
    print(line = "") {
      if (progressShown && tty) process.stderr.write("\r\x1b[K");
      progressShown = false;
      process.stdout.write(`${line}\n`);
    },
  };
  ctx.print(`Cuescope bench — node ${process.version}, ${args.repeats} repetitions per measurement (median)`);
  for (const { section, parts } of selected) {
    ctx.print();
    ctx.print(`== ${section.name}${parts ? ` (${parts.join(", ")})` : ""}: ${section.description}`);
    await section.run(ctx, parts);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
