import { describe, expect, it } from "vitest";
import {
  copyColumn,
  eventColumns,
  policyColumn,
  replayFiltersColumn,
  replayResultColumn,
  runSummaryColumn,
  StoredDataError,
  type EventRow,
} from "./json-columns";

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

  it("reads an events row back as its event: envelope columns around the body, turn only where there is one", () => {
    const row: EventRow = {
      seq: "7",
      eventId: "e7",
      type: "request.submitted",
      ts: "2026-11-29T10:00:05.120Z",
      turn: 3,
      body: { outcome: "ok" },
    };
    expect(eventColumns(row, "run-1")).toEqual({
      id: "e7",
      runId: "run-1",
      type: "request.submitted",
      ts: "2026-11-29T10:00:05.120Z",
      turn: 3,
      body: { outcome: "ok", countsAgainstBudget: true },
    });
    const started = eventColumns({ ...row, type: "run.ended", turn: null, body: { status: "completed" } }, "run-1");
    expect(started).not.toHaveProperty("turn");
    expect(started.body).toEqual({ status: "completed" });
  });

  it("names the events row (its seq), the column and the path inside the event of a stored event that no longer parses", () => {
    const row: EventRow = { seq: "41", eventId: "e41", type: "meter.requests", ts: "2026-11-29T10:00:00Z", turn: 2, body: { used: -1 } };
    const error = (() => {
      try {
        eventColumns(row, "run-1");
      } catch (e) {
        return e as StoredDataError;
      }
    })();
    expect(error).toBeInstanceOf(StoredDataError);
    expect(error).toMatchObject({ table: "events", rowId: "41", column: "body", problems: [{ path: "body.used" }] });
    expect(error?.message).toMatch(
      /^stored events\.body of row "41" does not match its schema: body\.used: expected integer >= 0, got -1$/,
    );
    expect(() => eventColumns({ ...row, type: "meter.pressure", body: { used: 1 } }, "run-1")).toThrow(
      /^stored events\.type of row "41" does not match its schema: .*unknown event type "meter\.pressure"/,
    );
    expect(() => eventColumns({ ...row, turn: null, body: { used: 1 } }, "run-1")).toThrow(/^stored events\.turn of row "41"/);
  });
});
