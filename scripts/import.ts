/**
 * `npm run import -- FILE.jsonl [...] [--project NAME] [--url URL] [--key KEY]`
 * Sends JSON Lines files through the ingestion service, with progress and a summary; every error
 * names its file, line, JSON path and reason. Exits 1 when any line was rejected.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { importLines } from "@/lib/client/import-lines";
import { progressBar } from "./lib/progress";
import { rebuildLoadedRuns, resolveTarget } from "./lib/target";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { project: { type: "string" }, url: { type: "string" }, key: { type: "string" }, "batch-size": { type: "string" } },
  });
  if (positionals.length === 0) {
    console.error("usage: npm run import -- FILE.jsonl [...] [--project NAME] [--url URL] [--key KEY]");
    return 2;
  }
  const target = await resolveTarget(values);
  console.error(`importing into ${target.label}`);
  let failed = false;
  try {
    for (const file of positionals) {
      const bar = progressBar(file);
      const tally = await importLines(readFileSync(file, "utf8"), target.sink, {
        batchSize: Number(values["batch-size"] ?? 500),
        onProgress: (done, total, t) =>
          bar.update(done, total, `created ${t.created} · duplicate ${t.duplicate} · errors ${t.errors.length}`),
      });
      bar.done();
      console.log(`${file}: ${tally.events} events: ${tally.created} created, ${tally.duplicate} duplicate, ${tally.errors.length} errors`);
      for (const error of tally.errors.slice(0, 50)) console.log(`  ${file}:${error.line}: ${error.path || "(root)"}: ${error.message}`);
      if (tally.errors.length > 50) console.log(`  … and ${tally.errors.length - 50} more errors`);
      failed ||= tally.errors.length > 0;
    }
    await rebuildLoadedRuns(target);
  } finally {
    await target.close();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`import: ${(error as Error).message}`);
    process.exit(2);
  },
);
