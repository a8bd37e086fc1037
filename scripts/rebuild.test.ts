import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { generateEtfRun, toJsonl } from "@/lib/demo/etf-run";
import { rebuildOutputExample } from "@/lib/testing/contract-text";

const run = promisify(execFile);
const root = join(__dirname, "..");
const tsx = join(root, "node_modules", ".bin", "tsx");
const teaching = join(__dirname, "fixtures", "teaching.jsonl");

async function rebuildCli(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, [join(__dirname, "rebuild.ts"), file], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function tempFile(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "cuescope-cli-")), "run.jsonl");
  writeFileSync(file, lines.join("\n"));
  return file;
}

const teachingLines = readFileSync(teaching, "utf8").trim().split("\n");

describe("npm run rebuild", () => {
  it("prints contract §9's decisions for the teaching scene: turn 10 is §6's example output", async () => {
    const { code, stdout, stderr } = await rebuildCli(teaching);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const decisions = JSON.parse(stdout);
    const example = rebuildOutputExample();
    expect(decisions.runId).toBe(example.runId);
    expect(decisions.turns.find((t: { turn: number }) => t.turn === 10)).toStrictEqual(example.turns[0]);
    expect(decisions.findings).toStrictEqual(example.findings);
  });

  it("gives the same output for shuffled lines with blank lines and exact repeats", async () => {
    const { stdout: expected } = await rebuildCli(teaching);
    const shuffled = [...teachingLines].reverse();
    const file = tempFile(["", shuffled[3], ...shuffled, "   ", shuffled[0], ""]);
    const { code, stdout } = await rebuildCli(file);
    expect(code).toBe(0);
    expect(stdout).toBe(expected);
  });

  it("reports every problem with line, path and reason, exits 2 and prints nothing on stdout", async () => {
    const start = JSON.parse(teachingLines[0]);
    const meter = JSON.parse(teachingLines[1]);
    const file = tempFile([
      teachingLines[0],
      "{not json",
      JSON.stringify({ ...meter, id: "bad-turn", turn: "three" }),
      JSON.stringify({ ...meter, id: "bad-type", type: "meter.money" }),
      JSON.stringify(meter),
      JSON.stringify({ ...meter, body: { used: 99 } }),
      JSON.stringify({ ...start, id: "second-start" }),
      JSON.stringify({ ...meter, id: "other-run", runId: "someone-else" }),
      JSON.stringify({ ...start, id: "bad-policy", body: { ...start.body, policy: { requests: { limit: 40, stages: [0.9, 0.5] } } } }),
    ]);
    const { code, stdout, stderr } = await rebuildCli(file);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    const lines = stderr.trim().split("\n");
    expect(lines[0]).toMatch(/^line 2: \(root\): not valid JSON/);
    expect(lines).toContain('line 3: turn: expected integer >= 0, got "three"');
    expect(lines.some((l) => l.startsWith('line 4: type: unknown event type "meter.money"'))).toBe(true);
    expect(lines).toContain(`line 6: id: "${meter.id}" was already used on line 5 with other content`);
    expect(lines.some((l) => l.startsWith("line 7: type: a second run.started"))).toBe(true);
    expect(lines.some((l) => l.startsWith('line 8: runId: "someone-else" differs from the run.started\'s runId "teach"'))).toBe(true);
    expect(lines.some((l) => l.startsWith("line 9: body.policy.requests.stages.1: stages must be strictly ascending"))).toBe(true);
    expect(lines.every((l) => /^(line \d+|file): [^:]+: .+/.test(l))).toBe(true);
  });

  it("applies the ingestion service's storage limits: ranges, strings, instants, depth", async () => {
    const meter = JSON.parse(teachingLines[1]);
    const deep = `${"[".repeat(100_000)}1${"]".repeat(100_000)}`; // far deeper than any stack
    const file = tempFile([
      ...teachingLines,
      JSON.stringify({ ...meter, id: "big-turn", turn: 2 ** 31 }),
      JSON.stringify({ ...meter, id: "big-count", body: { used: 2 ** 53 } }),
      JSON.stringify({ ...meter, id: "nul", body: { used: 1 }, note: "a\u0000b" }),
      JSON.stringify({ ...meter, id: "surrogate\ud800" }),
      JSON.stringify({ ...meter, id: "year-0", ts: "0000-06-01T00:00:00Z" }),
      JSON.stringify({ ...meter, id: "deep", extra: "DEEP" }).replace('"DEEP"', deep),
      JSON.stringify({ ...meter, id: "leap", ts: "2026-12-31T23:59:60.5Z" }),
    ]);
    const { code, stdout, stderr } = await rebuildCli(file);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    const n = teachingLines.length;
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(new RegExp(`^line ${n + 1}: turn: expected integer >= 0 and at most 2147483647`));
    expect(lines[1]).toMatch(new RegExp(`^line ${n + 2}: body.used: expected integer >= 0 and at most 9007199254740991`));
    expect(lines[2]).toMatch(new RegExp(`^line ${n + 3}: note: string contains U\\+0000`));
    expect(lines[3]).toMatch(new RegExp(`^line ${n + 4}: id: string contains a lone UTF-16 surrogate U\\+D800`));
    expect(lines[4]).toMatch(new RegExp(`^line ${n + 5}: ts: instant out of range`));
    expect(lines[5]).toMatch(new RegExp(`^line ${n + 6}: extra(\\.0)+: nested too deeply`));
  }, 30_000);

  it("reports a file without run.started as a file problem", async () => {
    const { code, stdout, stderr } = await rebuildCli(tempFile(teachingLines.slice(1)));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^file: type: no run.started event/m);
  });

  it("says how to call it when the file is missing", async () => {
    const { code, stdout, stderr } = await rebuildCli(join(tmpdir(), "does-not-exist.jsonl"));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^file: \(root\): cannot read .*ENOENT/);
  });

  it("stops quietly when the reader closes the pipe early (| head)", async () => {
    const file = tempFile([toJsonl(generateEtfRun({ turns: 300, seed: 3 }).events)]);
    const child = spawn(tsx, [join(__dirname, "rebuild.ts"), file], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once("data", () => child.stdout.destroy()); // read the first chunk, then hang up like `head`
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  }, 30_000);
});
