/**
 * Writes a deterministic run of the ETF research agent as JSON Lines.
 *
 *   npx tsx scripts/gen-run.ts --turns 500 --seed 7 [--anomalies] [--out file.jsonl]
 *        [--run-id id] [--repeats n] [--manifest manifest.json]
 *
 * JSONL goes to stdout unless --out is given; a one-line summary goes to stderr. --manifest writes
 * the injected anomalies and the findings the rebuild should make.
 */
import { writeFileSync } from "node:fs";
import { generateEtfRun, toJsonl } from "@/lib/demo/etf-run";

const USAGE =
  "usage: npx tsx scripts/gen-run.ts [--turns N] [--seed N] [--anomalies] [--repeats N] [--run-id ID] [--out FILE] [--manifest FILE]";

interface Args {
  turns: number;
  seed: number;
  anomalies: boolean;
  repeats: number;
  runId?: string;
  out?: string;
  manifest?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { turns: 500, seed: 7, anomalies: false, repeats: 1 };
  const integer = (flag: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < min) fail(`${flag} needs an integer >= ${min}, got ${value ?? "nothing"}`);
    return n;
  };
  const text = (flag: string, value: string | undefined): string => {
    if (value === undefined || value === "" || value.startsWith("--")) fail(`${flag} needs a value`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case "--turns":
        args.turns = integer(flag, argv[++i], 1);
        break;
      case "--seed":
        args.seed = integer(flag, argv[++i], 0);
        break;
      case "--anomalies":
        args.anomalies = true;
        break;
      case "--repeats":
        args.repeats = integer(flag, argv[++i], 1);
        break;
      case "--run-id":
        args.runId = text(flag, argv[++i]);
        break;
      case "--out":
        args.out = text(flag, argv[++i]);
        break;
      case "--manifest":
        args.manifest = text(flag, argv[++i]);
        break;
      case "-h":
      case "--help":
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
      default:
        fail(`unknown argument ${JSON.stringify(flag)}`);
    }
  }
  return args;
}

function fail(message: string): never {
  process.stderr.write(`gen-run: ${message}\n${USAGE}\n`);
  process.exit(2);
}

const args = parseArgs(process.argv.slice(2));
const run = generateEtfRun({
  turns: args.turns,
  seed: args.seed,
  anomalies: args.anomalies,
  anomalyRepeats: args.repeats,
  runId: args.runId,
  onProgress: args.turns >= 5_000 ? (phase, done, total) => process.stderr.write(`\rgen-run: ${phase} ${done}/${total}   `) : undefined,
});
if (args.turns >= 5_000) process.stderr.write("\n");
const jsonl = toJsonl(run.events);
if (args.out) writeFileSync(args.out, jsonl);
else process.stdout.write(jsonl);
if (args.manifest) writeFileSync(args.manifest, `${JSON.stringify(run.manifest, null, 2)}\n`);

const { injected, notInjected, expectedFindings } = run.manifest;
process.stderr.write(
  `gen-run: ${run.runId}: ${args.turns} turns, ${run.events.length} events, ${(Buffer.byteLength(jsonl) / 1e6).toFixed(2)} MB` +
    (args.out ? ` -> ${args.out}` : "") +
    `; ${injected.length} anomalies injected` +
    (notInjected.length ? ` (${notInjected.length} did not fit: ${notInjected.map((n) => n.code).join(", ")})` : "") +
    `; ${expectedFindings.length} findings expected\n`,
);
