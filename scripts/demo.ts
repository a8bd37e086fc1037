/**
 * `npm run demo [-- --project NAME] [--url URL] [--key KEY]`: loads the demo runs of the seed's
 * ETF research agent (through the running server when there is one). Loading twice changes
 * nothing: events are idempotent.
 */
import { parseArgs } from "node:util";
import { loadDemo } from "./lib/load-demo";
import { rebuildLoadedRuns, resolveTarget } from "./lib/target";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { project: { type: "string" }, url: { type: "string" }, key: { type: "string" } } });
  const target = await resolveTarget({ ...values, project: values.project ?? "demo" });
  console.error(`loading demo data into ${target.label}`);
  try {
    const { errors } = await loadDemo(target.sink);
    if (errors > 0) console.error(`demo: ${errors} events were rejected`);
    await rebuildLoadedRuns(target);
    return errors > 0 ? 1 : 0;
  } finally {
    await target.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`demo: ${(error as Error).message}`);
    process.exit(2);
  },
);
