/**
 * `npm run demo [-- --project NAME] [--url URL] [--key KEY]`: loads the demo runs of the seed's
 * ETF research agent (through the running server when there is one). Loading twice changes
 * nothing: events are idempotent, and the demo experiment's versions and experiment are found by name.
 */
import { parseArgs } from "node:util";
import { loadDemo } from "./lib/load-demo";
import { databaseStore, httpStore, loadDemoExperiment } from "./lib/load-demo-experiment";
import { rebuildLoadedRuns, resolveTarget } from "./lib/target";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { project: { type: "string" }, url: { type: "string" }, key: { type: "string" } } });
  const target = await resolveTarget({ ...values, project: values.project ?? "demo" });
  console.error(`loading demo data into ${target.label}`);
  try {
    const { errors } = await loadDemo(target.sink);
    if (errors > 0) console.error(`demo: ${errors} events were rejected`);
    const experiment = await loadDemoExperiment(
      target.kind === "http"
        ? httpStore(target.url, target.key)
        : databaseStore(target.db, {
            projectId: target.projectId,
            project: target.project,
            key: { id: "cli", prefix: "cli", label: "npm run demo" },
          }),
      target.sink,
    );
    if (experiment.errors > 0) console.error(`demo: ${experiment.errors} experiment events were rejected`);
    console.error(`demo experiment: ${experiment.runs} runs`);
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
