import { describe, expect, it } from "vitest";
import { copyColumn, policyColumn, replayFiltersColumn, replayResultColumn, runSummaryColumn, StoredDataError } from "./json-columns";

const result = {
  runs: 1,
  turns: 2,
  keys: [],
  changedRuns: [{ runId: "r", changedTurns: 1, fateChangedTurns: 0, turns: [{ turn: 0, changes: ["text"], fate: false }] }],
  followUp: [],
};

describe("JSON columns read through their contracts", () => {
  it("hands back documents that parse, defaults and all", () => {
    expect(copyColumn({ id: "c1", copy: { context: { "*": "Ctx" } } })).toEqual({ context: { "*": "Ctx" } });
    expect(policyColumn({ id: "p1", policy: { requests: { limit: 60, stages: [0.5] } } }).requests).toEqual({
      limit: 60,
      deliveryReserve: 0,
      stages: [0.5],
    });
    expect(replayFiltersColumn({ id: "j1", filters: null })).toEqual({});
    expect(replayResultColumn({ id: "j1", result: null })).toBeNull();
    expect(replayResultColumn({ id: "j1", result })).toEqual(result);
  });

  it("names the table, row, column and path of a stored document that no longer parses", () => {
    const read = () => copyColumn({ id: "c9", copy: { contxt: {} } });
    expect(read).toThrow(StoredDataError);
    expect(read).toThrow(/^stored copy_versions\.copy of row "c9" does not match its schema: \(the document\): unknown copy key "contxt"/);
    expect(() => policyColumn({ id: "p9", policy: { requests: { limit: "60", stages: [] } } })).toThrow(
      /policy_versions\.policy of row "p9".*requests\.limit/,
    );
    expect(() => runSummaryColumn({ runPk: "run9", summary: { rebuiltTurns: 1 } })).toThrow(
      /run_decisions\.summary of row "run9".*skippedTurns/,
    );
    expect(() => replayFiltersColumn({ id: "j9", filters: { status: "asleep" } })).toThrow(/replay_jobs\.filters of row "j9".*status/);
    const error = (() => {
      try {
        replayResultColumn({ id: "j9", result: { ...result, runs: "one" } });
      } catch (e) {
        return e as StoredDataError;
      }
    })();
    expect(error).toMatchObject({ table: "replay_jobs", rowId: "j9", column: "result", problems: [{ path: "runs" }] });
  });

  it("reads a replay result of an older format as such, not as broken", () => {
    const noFate = { ...result, changedRuns: [{ ...result.changedRuns[0], turns: [{ turn: 0, changes: ["text"] }] }] };
    expect(replayResultColumn({ id: "j2", result: noFate })).toBe("older format");
    expect(replayResultColumn({ id: "j3", result: { ...result, followUp: { context: {} } } })).toBe("older format");
    expect(() => replayResultColumn({ id: "j4", result: "done" })).toThrow(StoredDataError);
  });
});
