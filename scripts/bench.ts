/**
 * `npm run bench [-- --only NAME[,NAME]] [--repeats N]`: runs the bench sections in order and prints a
 * table per section. Timing targets are reported as PASS/MISS; the bench never fails on timing.
 *
 * Sections live in scripts/bench/<name>.ts and export a function returning a BenchSection; add a
 * new one (ingest, HTTP, ...) to SECTIONS below.
 */
import type { BenchContext, BenchSection } from "./bench/common";
import { ingestSection } from "./bench/ingest";
import { pageSection } from "./bench/page";
import { rebuildSection } from "./bench/rebuild";
import { replaySection } from "./bench/replay";

const SECTIONS: BenchSection[] = [rebuildSection(), replaySection(), ingestSection(), pageSection()];

function parseArgs(argv: string[]): { only: string[] | null; repeats: number } {
  let only: string[] | null = null;
  let repeats = 7;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--only") only = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (argv[i] === "--repeats") repeats = Number(argv[++i]);
    else {
      process.stderr.write(
        `bench: unknown argument ${JSON.stringify(argv[i])}\nusage: npm run bench -- [--only rebuild,replay,ingest,page] [--repeats 7]\n`,
      );
      process.exit(2);
    }
  }
  if (!Number.isInteger(repeats) || repeats < 1) {
    process.stderr.write("bench: --repeats needs an integer >= 1\n");
    process.exit(2);
  }
  return { only, repeats };
}

async function main(): Promise<void> {
  const { only, repeats } = parseArgs(process.argv.slice(2));
  const unknown = (only ?? []).filter((name) => !SECTIONS.some((s) => s.name === name));
  if (unknown.length) {
    process.stderr.write(`bench: no section ${unknown.join(", ")} (have ${SECTIONS.map((s) => s.name).join(", ")})\n`);
    process.exit(2);
  }
  const tty = process.stderr.isTTY;
  let progressShown = false;
  const ctx: BenchContext = {
    repeats,
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
  ctx.print(`Cuescope bench — node ${process.version}, ${repeats} repetitions per measurement (median)`);
  for (const section of SECTIONS.filter((s) => only === null || only.includes(s.name))) {
    ctx.print();
    ctx.print(`== ${section.name}: ${section.description}`);
    await section.run(ctx);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
