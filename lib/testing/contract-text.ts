/**
 * The contract's worked example as docs/contract writes it, read from the markdown for the tests
 * that reproduce it (contract §9 and §6's output example): an edit of the contract's text fails
 * them, instead of the tests restating the values. Test support only: it reads files.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ZCopy, ZPolicy, ZRunDecisions, type TCopy, type TPolicyInput, type TRunDecisions } from "@/lib/contracts";

const CONTRACT_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "contract");

/** One file of docs/contract, as text. */
export function contractText(file: string): string {
  return readFileSync(join(CONTRACT_DIR, file), "utf8");
}

/** The body rows of the markdown table whose header row is exactly `header` (cells trimmed). */
export function markdownTable(text: string, header: readonly string[]): string[][] {
  const lines = text.split("\n");
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((c) => c.trim());
  const start = lines.findIndex((line) => line.trim().startsWith("|") && JSON.stringify(cells(line)) === JSON.stringify(header));
  if (start < 0) throw new Error(`no table with the header | ${header.join(" | ")} |`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith("|")) break;
    rows.push(cells(line));
  }
  return rows;
}

/** A cell written as inline code: its text without the backticks. */
function code(cell: string): string {
  const match = /^`(.*)`$/.exec(cell);
  if (!match) throw new Error(`expected an inline-code cell, got ${JSON.stringify(cell)}`);
  return match[1];
}

/** The text of one `## heading` section of a markdown file (up to the next `## ` heading). */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "## ${heading}"`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** §9's copy table: key → its `*` template. */
export function workedExampleCopy(): TCopy {
  const rows = markdownTable(contractText("worked-example.md"), ["copy key", "`*` template"]);
  return ZCopy.parse(Object.fromEntries(rows.map(([key, template]) => [key, { "*": code(template) }])));
}

/** §5's default copy table (policy-and-copy.md, "Default copy"): key → template name → text. */
export function defaultCopyTable(): TCopy {
  const rows = markdownTable(contractText("policy-and-copy.md"), ["key", "template", "text"]);
  const copy: Record<string, Record<string, string>> = {};
  for (const [key, template, text] of rows) (copy[key] ??= {})[code(template)] = code(text);
  return ZCopy.parse(copy);
}

/** The prose of one turn of §9 (its "## Turn N" section), for the tests that read their expectations from it. */
export function workedExampleTurn(turn: number): string {
  return section(contractText("worked-example.md"), `Turn ${turn}`);
}

/** The groups of `pattern`'s match in `text`, as numbers where they are digits; throws when the text does not say it. */
export function proseFacts(text: string, pattern: RegExp): number[] {
  const match = pattern.exec(text);
  if (!match) throw new Error(`the contract's text no longer says ${pattern}`);
  return match.slice(1).map(Number);
}

/** A template with its placeholders filled from `values` (contract §5), written independently of lib/core's renderer. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for {${name}}`);
    return String(values[name]);
  });
}

/** A reminder's cost as R8 defines it: the UTF-8 byte length of its text plus 1 (the newline). */
export function reminderCostOf(text: string): number {
  return new TextEncoder().encode(text).length + 1;
}

/** §9's setup policy, from its table of sections (written as JS object literals with bare keys). */
export function workedExamplePolicy(): TPolicyInput {
  const rows = markdownTable(contractText("worked-example.md"), ["policy section", "value"]);
  const policy = Object.fromEntries(rows.map(([name, value]) => [name, JSON.parse(code(value).replace(/([A-Za-z]\w*)\s*:/g, '"$1":'))]));
  ZPolicy.parse(policy);
  return policy as TPolicyInput;
}

/** One row of §9's turn-10 fitting table. */
export interface FittingRow {
  text: string;
  cost: number;
  result: "delivered" | "dropped";
  /** The free bytes a dropped reminder is dropped with (the "(N free)" of its result), else null. */
  droppedWithFree: number | null;
  freeBytesAfter: number;
}

/** §9's turn 10: the reminders fitted in presentation order (R8), as its table writes them. */
export function workedExampleFitting(): FittingRow[] {
  const turn10 = section(contractText("worked-example.md"), "Turn 10");
  return markdownTable(turn10, ["reminder", "cost", "result", "free bytes after"]).map(([text, cost, result, after]) => {
    const dropped = /^dropped \((\d+) free\)$/.exec(result);
    if (!dropped && result !== "delivered") throw new Error(`unknown fitting result ${JSON.stringify(result)}`);
    return {
      text: code(text),
      cost: Number(cost),
      result: dropped ? "dropped" : "delivered",
      droppedWithFree: dropped ? Number(dropped[1]) : null,
      freeBytesAfter: Number(after),
    };
  });
}

/** §6's example output (turn 10 of the worked example), exactly as the JSON block writes it. */
export function rebuildOutputExample(): TRunDecisions {
  const output = section(contractText("rebuild.md"), "Output: `RunDecisions`");
  const block = /```json\n([\s\S]*?)\n```/.exec(output);
  if (!block) throw new Error("no ```json block in rebuild.md's output section");
  const value: unknown = JSON.parse(block[1]);
  ZRunDecisions.parse(value);
  return value as TRunDecisions;
}
