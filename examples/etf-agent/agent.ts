/**
 * An ETF research agent instrumented with @cuescope/sdk: it compares the holdings and fees of four
 * ETFs, publishes its findings as text blocks and edits them, with a scripted model (no network, no
 * API key) — and records every turn to a Cuescope server, its reminders decided by the SDK's
 * in-process coordinator, so the run audits with zero findings.
 *
 *   npx tsx examples/etf-agent/agent.ts --url http://localhost:3000 --key <key> [--turns N] [--delay MS | --fast] [--run-id ID] [--quiet]
 *
 * The key may also come from CUESCOPE_API_KEY or, run from the repository, the demo key npm start keeps; the URL
 * from CUESCOPE_URL. See README.md beside it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createCuescope, type CuescopeError } from "@cuescope/sdk";
import { createCoordinator, type TurnPlan } from "@cuescope/sdk/coordinator";
import { FUNDS, scriptedModel, type Action, type Research } from "./model";

interface Args {
  url: string;
  key: string;
  turns: number;
  delayMs: number;
  runId?: string;
  quiet: boolean;
}

const USAGE =
  "usage: npx tsx examples/etf-agent/agent.ts --url http://localhost:3000 --key <key> [--turns N] [--delay MS | --fast] [--run-id ID] [--quiet]";

function parseArgs(argv: string[]): Args {
  const args: Partial<Args> = {
    url: process.env.CUESCOPE_URL ?? "http://localhost:3000",
    key: process.env.CUESCOPE_API_KEY,
    turns: 40,
    delayMs: 1000,
    quiet: false,
  };
  const value = (flag: string, v: string | undefined) => {
    if (v === undefined || v.startsWith("--")) fail(`${flag} needs a value`);
    return v;
  };
  const integer = (flag: string, v: string | undefined, min: number) => {
    const n = Number(value(flag, v));
    if (!Number.isInteger(n) || n < min) fail(`${flag} needs an integer >= ${min}, got ${v}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--url") args.url = value(flag, argv[++i]);
    else if (flag === "--key") args.key = value(flag, argv[++i]);
    else if (flag === "--turns") args.turns = integer(flag, argv[++i], 4);
    else if (flag === "--delay") args.delayMs = integer(flag, argv[++i], 0);
    else if (flag === "--fast") args.delayMs = 0;
    else if (flag === "--run-id") args.runId = value(flag, argv[++i]);
    else if (flag === "--quiet") args.quiet = true;
    else if (flag === "-h" || flag === "--help") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else fail(`unknown argument ${JSON.stringify(flag)}`);
  }
  // `npm start` on the embedded database keeps its demo key beside the data directory
  // (CUESCOPE_DATA_DIR, default .cuescope/data: lib/server/auth/demo-key.ts).
  const demoKey = join(dirname(resolve(process.env.CUESCOPE_DATA_DIR ?? ".cuescope/data")), "demo-key");
  if (!args.key && existsSync(demoKey)) args.key = readFileSync(demoKey, "utf8").trim();
  if (!args.key) fail("an API key is needed: --key or CUESCOPE_API_KEY (npm start prints the demo key)");
  return args as Args;
}

function fail(message: string): never {
  process.stderr.write(`etf-agent: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** The policy: limits scaled so that a run of `turns` turns climbs through every stage. */
function policyFor(turns: number) {
  const usable = Math.ceil(turns * 1.15);
  return {
    requests: { limit: usable + 6, deliveryReserve: 6, stages: [0.5, 0.75, 0.9] },
    time: { limitMs: turns * 30_000, stages: [0.5, 0.75, 0.9] },
    context: { capacityBytes: 2_600, stages: [0.7, 0.85, 0.95] },
    edits: { perBlockLimit: 3, stages: [0.5, 1.0] },
    review: { everyTurns: 8 },
    reviewer: { autoReviewAllowed: true, minRequestsLeft: 6 },
  };
}

const TASK = `Compare the holdings and fees of ${FUNDS.map((f) => f.ticker).join(", ")} for a long-term account and recommend one.`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const utf8 = (text: string) => new TextEncoder().encode(text).length;

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const log = (line: string) => args.quiet || process.stdout.write(`${line}\n`);
  const errors: CuescopeError[] = [];

  // --- the ten lines that instrument an agent ---------------------------------------------------
  const cuescope = createCuescope({ url: args.url, apiKey: args.key, flushIntervalMs: 250, onError: (e) => errors.push(e) });
  const run = cuescope.startRun({
    runId: args.runId,
    task: TASK,
    agent: "etf-agent-example",
    model: "scripted-model",
    policy: policyFor(args.turns),
  });
  const coordinator = createCoordinator(run);
  // ----------------------------------------------------------------------------------------------
  log(`run ${run.runId}: ${args.url.replace(/\/$/, "")}/runs/${encodeURIComponent(run.runId)}`);

  const research: Research = { notes: [], blocks: new Map(), facts: new Set(), reviewed: 0, finalized: false };
  let requests = 0; // model requests used (the budget's reading)
  let elapsedMs = 0; // the agent's clock: scripted, so every run is the same
  let editedBlock: string | null = null; // the publisher reports an edit on the next turn
  let review: { candidateId: string; dispatchId: string; until: number } | null = null;
  let turn = 0;

  while (!research.finalized) {
    turn++;
    // 1. Readings, each from its owner: budget, clock, publisher; a finished Reviewer dispatch.
    run.meterRequests({ used: requests }, { turn });
    run.meterTime({ elapsedMs }, { turn });
    if (editedBlock) run.blockEdited({ blockId: editedBlock, used: research.blocks.get(editedBlock)!.edits }, { turn });
    editedBlock = null;
    if (review && review.until <= turn) {
      run.reviewerCompleted({ dispatchId: review.dispatchId, verdict: "sources check out" }, { turn });
      run.modelAction({ kind: "check_evidence" }, { turn });
      review = null;
    }

    // 2. The final request (before reminders); compacted when it grows past 90% of capacity.
    let request = assemble(research);
    const capacity = coordinator.policy.context!.capacityBytes;
    if (utf8(request) > capacity * 0.9 && research.notes.length > 2) {
      const originalBytes = utf8(request);
      research.notes.splice(0, research.notes.length - 2, `(${research.notes.length - 2} older notes summarised)`);
      request = assemble(research);
      run.contextCompaction({ originalBytes, candidateBytes: utf8(request), outcome: "adopted" }, { turn });
    }

    // 3. The coordinator decides the reminders (recording request.final), the model answers.
    const plan: TurnPlan = coordinator.decide({ turn, requiredBytes: utf8(request) });
    requests++;
    const outcome = turn % 17 === 9 ? "failed" : "ok"; // now and then the provider fails a request
    coordinator.submitted(plan, outcome);
    const admission = coordinator.reviewer(plan);
    if (admission?.granted && !review) {
      review = { candidateId: admission.candidateId, dispatchId: `${admission.candidateId}:dispatch`, until: turn + 2 };
      run.reviewerDispatched({ candidateId: review.candidateId, dispatchId: review.dispatchId }, { turn });
      requests++; // the Reviewer's own model request, read by the budget on the next turn
    }

    let action: Action = { kind: "other", text: "the request failed: no answer" };
    if (outcome === "ok") {
      action = scriptedModel(research, plan, { turn, turns: args.turns });
      apply(research, action);
      if (action.kind === "edit_block") editedBlock = action.blockId ?? null;
      if (action.kind === "finalize") run.userNotified({ channel: "console", message: action.text }, { turn });
    }
    run.modelAction(action.blockId ? { kind: action.kind, blockId: action.blockId } : { kind: action.kind }, { turn });
    elapsedMs += outcome === "ok" ? 24_000 + (turn % 5) * 1_000 : 9_000;

    const shown = plan.included.map((r) => (r.subject ? `${r.key}:${r.subject}` : r.key) + `@${r.stage}`).join(" ");
    const dropped = plan.reminders.filter((r) => r.status === "dropped").length;
    log(
      `turn ${String(turn).padStart(3)}  ${String(utf8(request)).padStart(5)} B  ${outcome.padEnd(6)} ${action.kind.padEnd(17)}` +
        `${shown ? ` reminders: ${shown}` : ""}${dropped ? ` (${dropped} dropped)` : ""}${admission ? ` reviewer: ${admission.granted ? "admitted" : admission.reasons.join(",")}` : ""}`,
    );
    if (args.delayMs > 0) await sleep(args.delayMs);
  }

  run.end({ status: "completed" });
  await cuescope.shutdown();
  const stats = cuescope.stats();
  const findings = coordinator.findings();
  log(`done: ${turn} turns, ${stats.acknowledged} events stored, ${findings.length} findings`);
  for (const e of errors) process.stderr.write(`etf-agent: ${e.kind}: ${e.message}\n`);
  process.stdout.write(
    `${JSON.stringify({ runId: run.runId, turns: turn, events: stats.acknowledged, findings: findings.length, stats })}\n`,
  );
  return errors.length === 0 && stats.acknowledged === stats.sent ? 0 : 1;
}

/** The request the model gets (before reminders): task, published blocks, research notes. */
function assemble(research: Research): string {
  const blocks = [...research.blocks.entries()].map(([id, b]) => `## ${id}: ${b.title}\n${b.text}`);
  return [`# Task\n${TASK}`, "# Published", ...blocks, "# Notes", ...research.notes].join("\n\n");
}

function apply(research: Research, action: Action): void {
  if (action.kind === "tool_call") research.notes.push(action.text);
  else if (action.kind === "append_block") research.blocks.set(action.blockId!, { title: action.title!, text: action.text, edits: 0 });
  else if (action.kind === "edit_block") {
    const block = research.blocks.get(action.blockId!)!;
    block.text = action.text;
    block.edits++;
  } else if (action.kind === "review_objectives") research.reviewed++;
  else if (action.kind === "finalize") research.finalized = true;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`etf-agent: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  },
);
