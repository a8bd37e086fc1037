import { describe, expect, it } from "vitest";
import { FINDING_CODES, parseInstant, ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { AGENT_COMPARISON_CODES, generateEtfRun, toJsonl, type EtfRun } from "./etf-run";

const validated = (run: EtfRun): TEvent[] => run.events.map((event) => ZEvent.parse(event));
const keys = (findings: readonly { code: string; turn: number | null }[]) => findings.map((f) => `${f.turn}:${f.code}`).sort();

const withAnomalies = generateEtfRun({ turns: 600, seed: 7, anomalies: true, runId: "etf-anomalies" });
const clean = generateEtfRun({ turns: 600, seed: 7, runId: "etf-clean" });

describe("generateEtfRun: the events", () => {
  it.each([
    ["with anomalies", withAnomalies],
    ["without anomalies", clean],
  ])("every event passes ZEvent (%s)", (_, run) => {
    for (const [index, event] of run.events.entries()) {
      const result = ZEvent.safeParse(event);
      if (!result.success) throw new Error(`event ${index} (${JSON.stringify(event).slice(0, 200)}): ${result.error.message}`);
    }
  });

  it("numbers ids in emission order, with increasing ts and turns", () => {
    const { events } = withAnomalies;
    expect(events[0].type).toBe("run.started");
    expect(events[events.length - 1].type).toBe("run.ended");
    let lastMs = -Infinity;
    let lastTurn = 0;
    events.forEach((event, i) => {
      expect(event.id).toBe(`e-${String(i + 1).padStart(6, "0")}`);
      expect(event.runId).toBe("etf-anomalies");
      const ms = parseInstant(event.ts)!.ms;
      expect(ms).toBeGreaterThan(lastMs);
      lastMs = ms;
      if (event.type !== "run.started" && event.type !== "run.ended") {
        expect(event.turn).toBeGreaterThanOrEqual(lastTurn);
        lastTurn = event.turn as number;
      }
    });
    expect(lastTurn).toBe(599);
  });

  it("is deterministic for a seed, and differs between seeds", () => {
    const again = generateEtfRun({ turns: 600, seed: 7, anomalies: true, runId: "etf-anomalies" });
    expect(toJsonl(again.events)).toBe(toJsonl(withAnomalies.events));
    expect(again.manifest).toEqual(withAnomalies.manifest);
    const other = generateEtfRun({ turns: 600, seed: 8, anomalies: true, runId: "etf-anomalies" });
    expect(toJsonl(other.events)).not.toBe(toJsonl(withAnomalies.events));
  });

  it("writes JSON Lines that read back to the same events", () => {
    const text = toJsonl(clean.events);
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(clean.events.length);
    expect(lines.map((line) => JSON.parse(line))).toEqual(clean.events);
  });

  it("looks like a real run of the research agent", () => {
    const { events } = clean;
    const ofType = (type: string) => events.filter((e) => e.type === type);
    const bodies = (type: string) => ofType(type).map((e) => e.body as Record<string, unknown>);
    const compactions = bodies("context.compaction");
    expect(compactions.some((b) => b.outcome === "adopted")).toBe(true);
    expect(compactions.some((b) => b.outcome === "rolled_back")).toBe(true);
    const outcomes = new Set(bodies("request.submitted").map((b) => b.outcome));
    expect(outcomes).toEqual(new Set(["ok", "failed", "uncertain"]));
    expect(bodies("request.submitted").some((b) => b.purpose === "retry")).toBe(true);
    const kinds = new Set(bodies("model.action").map((b) => b.kind));
    for (const kind of ["tool_call", "edit_block", "append_block", "finalize"]) expect(kinds).toContain(kind);
    expect(kinds.has("review_objectives") || kinds.has("check_evidence")).toBe(true);
    const blocks = new Set(bodies("block.edited").map((b) => b.blockId));
    expect([...blocks].sort()).toEqual(["b1", "b2", "b3", "b4", "b5"]);
    for (const type of [
      "reviewer.candidate",
      "reviewer.admission",
      "reviewer.dispatched",
      "reviewer.completed",
      "user.notified",
      "reminders.marked",
    ]) {
      expect(ofType(type).length, type).toBeGreaterThan(0);
    }
    const used = bodies("meter.requests").map((b) => b.used as number);
    expect(used.every((u, i) => i === 0 || u >= used[i - 1])).toBe(true);
    const elapsed = bodies("meter.time").map((b) => b.elapsedMs as number);
    expect(elapsed.every((ms, i) => i === 0 || ms > elapsed[i - 1])).toBe(true);

    const turns = clean.coordinator.turns;
    // The context falls after an adopted compaction, and every meter reaches its top stages.
    expect(turns.some((t, i) => i > 0 && t.requiredBytes < turns[i - 1].requiredBytes / 2)).toBe(true);
    const last = turns[turns.length - 1].meters;
    expect(last.requests!.stage).toBe(3);
    expect(last.time!.stage).toBeGreaterThanOrEqual(2);
    expect(last.edits!.some((b) => b.used > b.limit)).toBe(true);
    expect(turns.some((t) => t.meters.context!.stage === 3)).toBe(true);
    expect(ofType("run.ended")[0].body).toEqual({ status: "completed" });
  });
});

describe("generateEtfRun: rebuilt by the core", () => {
  const anomalyDecisions = rebuild(validated(withAnomalies));
  const cleanDecisions = rebuild(validated(clean));

  it("copies the coordinator: the agent's lists do not change the rebuilt turns", () => {
    expect(cleanDecisions.turns).toEqual(clean.coordinator.turns);
    expect(anomalyDecisions.turns).toEqual(withAnomalies.coordinator.turns);
  });

  it("with anomalies, injects every contract §7 code and rebuild finds each", () => {
    const { manifest } = withAnomalies;
    expect(manifest.notInjected).toEqual([]);
    expect(new Set(manifest.injected.map((a) => a.code))).toEqual(new Set(FINDING_CODES));
    const found = new Set(keys(anomalyDecisions.findings));
    for (const anomaly of manifest.injected)
      expect(found, `${anomaly.code} at ${anomaly.turn}: ${anomaly.note}`).toContain(`${anomaly.turn}:${anomaly.code}`);
    expect(new Set(anomalyDecisions.findings.map((f) => f.code))).toEqual(new Set(FINDING_CODES));
  });

  it("with anomalies, rebuild finds exactly the manifest's expected findings", () => {
    expect(keys(anomalyDecisions.findings)).toEqual(keys(withAnomalies.manifest.expectedFindings));
  });

  it("without anomalies, no agent-comparison finding appears", () => {
    const codes = new Set(cleanDecisions.findings.map((f) => f.code));
    for (const code of AGENT_COMPARISON_CODES) expect(codes.has(code), code).toBe(false);
    expect(keys(cleanDecisions.findings)).toEqual(keys(clean.manifest.expectedFindings));
    expect(clean.manifest.injected).toEqual([]);
  });

  it("lists findings by turn (run-level last), then in contract §7 order", () => {
    const rank = (code: string) => FINDING_CODES.indexOf(code as (typeof FINDING_CODES)[number]);
    const turnKey = (turn: number | null) => (turn === null ? Number.MAX_SAFE_INTEGER : turn);
    const { findings } = anomalyDecisions;
    for (let i = 1; i < findings.length; i++) {
      const a = findings[i - 1],
        b = findings[i];
      expect(
        turnKey(a.turn) < turnKey(b.turn) || (a.turn === b.turn && rank(a.code) <= rank(b.code)),
        `${a.turn}:${a.code} before ${b.turn}:${b.code}`,
      ).toBe(true);
    }
  });

  it.each([1, 2, 3, 4, 5])("agrees with the manifest for seed %i, with each anomaly twice", (seed) => {
    const run = generateEtfRun({ turns: 900, seed, anomalies: true, anomalyRepeats: 2 });
    const decisions = rebuild(validated(run));
    expect(keys(decisions.findings)).toEqual(keys(run.manifest.expectedFindings));
    const found = new Set(keys(decisions.findings));
    for (const anomaly of run.manifest.injected) expect(found).toContain(`${anomaly.turn}:${anomaly.code}`);
  });

  it("injects only the codes asked for", () => {
    const run = generateEtfRun({ turns: 300, seed: 3, anomalies: ["STAGE_MISMATCH", "FREE_REQUEST"] });
    expect(new Set(run.manifest.injected.map((a) => a.code))).toEqual(new Set(["STAGE_MISMATCH", "FREE_REQUEST"]));
    const decisions = rebuild(validated(run));
    expect(keys(decisions.findings)).toEqual(keys(run.manifest.expectedFindings));
  });
});

describe("generateEtfRun with context parts (contract §11)", () => {
  const parts = generateEtfRun({ turns: 600, seed: 7, anomalies: true, runId: "etf-anomalies", contextParts: true });

  it("adds parts to every request.final, each valid and summing to at most requiredBytes, and changes nothing else", () => {
    const finals = parts.events.filter((e) => e.type === "request.final");
    expect(finals.length).toBeGreaterThan(500);
    for (const event of finals) {
      expect(ZEvent.safeParse(event).success).toBe(true);
      const body = event.body as { requiredBytes: number; contextParts: Record<string, number> };
      const sum = Object.values(body.contextParts).reduce((n, b) => n + b, 0);
      expect(sum).toBeLessThanOrEqual(body.requiredBytes);
    }
    const stripped = parts.events.map((e) => {
      if (e.type !== "request.final") return e;
      const { contextParts: _, ...body } = e.body as Record<string, unknown>;
      return { ...e, body };
    });
    expect(stripped).toEqual(withAnomalies.events);
  });

  it("carries earlier turns' delivered reminders until a compaction is adopted", () => {
    const decisions = rebuild(validated(parts));
    const carried = decisions.turns.map((t) => t.contextParts?.reminders ?? 0);
    // It grows over the run and falls back after compactions.
    expect(Math.max(...carried)).toBeGreaterThan(carried[1]);
    expect(carried.some((bytes, i) => i > 0 && bytes < carried[i - 1])).toBe(true);
  });
});
