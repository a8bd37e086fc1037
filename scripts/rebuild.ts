/**
 * `npm run --silent rebuild -- path/to/run.jsonl`: prints the run's RunDecisions (contract §6) as JSON
 * on stdout. Bad input exits 2 with nothing on stdout and one `line N: PATH: reason` per problem
 * on stderr.
 */
import { readFileSync } from "node:fs";
import { formatLineProblem, readEventLines, rebuild, RunInputError } from "@/lib/core";

function main(argv: string[]): number {
  const file = argv[0];
  if (argv.length !== 1 || !file || file.startsWith("-")) {
    process.stderr.write("usage: npm run --silent rebuild -- path/to/run.jsonl\n");
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    process.stderr.write(`file: (root): cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
    return 2;
  }
  const { events, problems } = readEventLines(text);
  if (problems.length > 0) {
    process.stderr.write(problems.map((p) => `${formatLineProblem(p)}\n`).join(""));
    return 2;
  }
  try {
    process.stdout.write(`${JSON.stringify(rebuild(events), null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof RunInputError) {
      process.stderr.write(`file: (root): ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

// A reader that stops early (`... | head`) closes the pipe: stop quietly instead of crashing on EPIPE.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit();
  throw error;
});

process.exitCode = main(process.argv.slice(2));
