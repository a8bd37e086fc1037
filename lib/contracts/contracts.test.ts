import { describe, expect, it } from "vitest";
import { ZCopy, ZEvent, ZPolicy, parseInstant, problemsFrom } from ".";

function problems(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) {
  const result = schema.safeParse(value);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return result.success ? [] : problemsFrom(result.error as any).map((p) => `${p.path}: ${p.message}`);
}

const envelope = { id: "e-1", runId: "run-1", ts: "2026-11-29T10:00:05.120Z", turn: 3 };

describe("telemetry envelope (§4)", () => {
  it.each([
    [{ turn: "three" }, 'turn: expected integer >= 0, got "three"'],
    [{ turn: -1 }, "turn: expected integer >= 0, got -1"],
    [{ turn: 1.5 }, "turn: expected integer >= 0, got 1.5"],
    [{ turn: undefined }, "turn: required, expected integer >= 0"],
    [{ id: "" }, 'id: expected string of 1-128 characters, got ""'],
    [{ id: "x".repeat(129) }, "id: expected string of 1-128 characters"],
    [{ runId: 7 }, "runId: expected string of 1-128 characters, got 7"],
    [{ ts: "2026-11-29T10:00:05" }, "ts: expected RFC 3339 date-time with a zone"],
    [{ ts: "2026-02-30T10:00:05Z" }, "ts: expected RFC 3339 date-time with a zone"],
    [{ type: "meter.bytes" }, 'type: unknown event type "meter.bytes"'],
    [{ body: { used: "3" } }, 'body.used: expected integer >= 0, got "3"'],
    [{ body: {} }, "body.used: required, expected integer >= 0"],
  ])("%j is rejected with %j", (patch, message) => {
    const found = problems(ZEvent, { ...envelope, type: "meter.requests", body: { used: 3 }, ...patch });
    expect(found.some((p) => p.startsWith(message))).toBe(true);
  });

  it("accepts a valid event, ignores unknown properties, and allows turn on run-level events", () => {
    const parsed = ZEvent.parse({ ...envelope, type: "meter.requests", body: { used: 3, extra: 1 }, extra: true });
    expect(parsed).toEqual({ ...envelope, type: "meter.requests", body: { used: 3 } });
    const ended = ZEvent.parse({ ...envelope, turn: "ignored", type: "run.ended", body: { status: "completed" } });
    expect(ended.turn).toBeUndefined();
    expect(problems(ZEvent, { ...envelope, turn: undefined, type: "run.ended", body: { status: "completed" } })).toEqual([]);
  });

  it.each([
    ["request.submitted", { outcome: "maybe" }, "body.outcome"],
    ["request.submitted", { outcome: "ok", reminders: [{ key: "budget", stage: 1 }] }, "body.reminders.0.key"],
    ["request.submitted", { outcome: "ok", reminders: [{ key: "edits", subject: 4, stage: 1 }] }, "body.reminders.0.subject"],
    ["request.submitted", { outcome: "ok", countsAgainstBudget: "no" }, "body.countsAgainstBudget"],
    ["request.submitted", { outcome: "ok", purpose: "spam" }, "body.purpose"],
    ["context.compaction", { originalBytes: 10, candidateBytes: 5, outcome: "kept" }, "body.outcome"],
    ["block.edited", { blockId: "b1", used: 1, limit: -1 }, "body.limit"],
    ["model.action", { kind: "dance" }, "body.kind"],
    ["reviewer.admission", { candidateId: "c", granted: "yes", reasons: [] }, "body.granted"],
    ["run.started", { task: "t" }, "body.policy"],
    ["run.started", { task: "t", policy: { requests: { limit: 4, stages: [0.5], remind: "no" } } }, "body.policy.requests.remind"],
    ["run.started", { task: "t", policy: {}, experiment: { id: "e", arm: "" } }, "body.experiment.arm"],
    ["run.started", { task: "t", policy: {}, experiment: { id: "x".repeat(201), arm: "a" } }, "body.experiment.id"],
    ["run.started", { task: "t", policy: {}, experiment: "e" }, "body.experiment"],
  ])("%s body %j fails at %s", (type, body, path) => {
    expect(problems(ZEvent, { ...envelope, type, body }).some((p) => p.startsWith(`${path}:`))).toBe(true);
  });

  it("subjects may be a string, null or absent", () => {
    const body = {
      outcome: "ok",
      reminders: [
        { key: "edits", subject: "b1", stage: 1 },
        { key: "time", subject: null, stage: 1 },
        { key: "time", stage: 2 },
      ],
    };
    expect(problems(ZEvent, { ...envelope, type: "request.submitted", body })).toEqual([]);
  });
});

describe("policy (§5)", () => {
  it("fills defaults", () => {
    expect(ZPolicy.parse({ requests: { limit: 10, stages: [0.5] }, reviewer: {} })).toEqual({
      requests: { limit: 10, deliveryReserve: 0, stages: [0.5] },
      reviewer: { autoReviewAllowed: false, minRequestsLeft: 0 },
    });
  });

  it.each([
    [{ requests: { limit: 10, stages: [] } }, "requests.stages: expected at least one stage threshold"],
    [{ requests: { limit: 10, stages: [0.5, 0.5] } }, "requests.stages.1: stages must be strictly ascending"],
    [{ requests: { limit: 10, stages: [0.9, 0.5] } }, "requests.stages.1: stages must be strictly ascending"],
    [{ requests: { limit: 10, stages: [0, 0.5] } }, "requests.stages.0: expected number > 0, got 0"],
    [{ requests: { stages: [0.5] } }, "requests.limit: required, expected integer >= 0"],
    [{ time: { limitMs: 0, stages: [0.5] } }, "time.limitMs: expected integer >= 1, got 0"],
    [{ context: { capacityBytes: 1.5, stages: [0.5] } }, "context.capacityBytes: expected integer >= 1, got 1.5"],
    [{ edits: { stages: [0.5] } }, "edits.perBlockLimit: required"],
    [{ review: { everyTurns: 0 } }, "review.everyTurns: expected integer >= 1, got 0"],
    [{ review: { afterMs: "10" } }, 'review.afterMs: expected integer >= 1, got "10"'],
    [{ reviewer: { autoReviewAllowed: 1 } }, "reviewer.autoReviewAllowed: expected boolean, got 1"],
    [{ reviewer: { minRequestsLeft: -1 } }, "reviewer.minRequestsLeft: expected integer >= 0, got -1"],
  ])("%j is invalid: %s", (policy, message) => {
    expect(problems(ZPolicy, policy).some((p) => p.startsWith(message))).toBe(true);
  });

  it("every section is optional", () => {
    expect(problems(ZPolicy, {})).toEqual([]);
  });
});

describe("copy (§5)", () => {
  it.each([
    [{ context: { "*": "Context {bytes}" } }, 'context.*: unknown placeholder {bytes} in template "*" of key "context"'],
    [{ review: { "*": "ok", "2": "at {turn} of {used}" } }, 'review.2: unknown placeholder {used} in template "2" of key "review"'],
    [{ requests: { "1": "x" } }, 'requests.*: key "requests" needs a "*" template'],
    [{ requests: { "*": "x", "01": "y" } }, 'requests.01: unknown template name "01"'],
    [{ requests: { "*": "x", "0": "y" } }, 'requests.0: unknown template name "0"'],
    [{ time: { "*": "x", exhausted: "y" } }, 'time.exhausted: template "exhausted" exists only for key "edits"'],
    [{ budget: { "*": "x" } }, ': unknown copy key "budget"'],
    [{ edits: { "*": 5 } }, "edits.*: expected template text (string), got 5"],
  ])("%j is invalid: %s", (copy, message) => {
    expect(problems(ZCopy, copy).some((p) => p.startsWith(message))).toBe(true);
  });

  it("accepts every key's own placeholders, literal braces and the exhausted template", () => {
    const copy = {
      requests: { "*": "{used} {limit} {reserve} {usable} {remaining} {percent} {stage}" },
      time: { "*": "{elapsedMs} {limitMs} {elapsedMin} {limitMin} {remainingMin} {percent} {stage}", "3": "{ not one } {{x" },
      context: { "*": "{requiredBytes} {capacityBytes} {freeBytes} {percent} {stage}" },
      edits: { "*": "{blockId} {used} {limit} {remaining} {percent} {stage}", exhausted: "{blockId}", "12": "x" },
      review: { "*": "{checkpoint} {turn} {1} {a_b}" },
    };
    expect(problems(ZCopy, copy)).toEqual([]);
  });
});

describe("RFC 3339 instants", () => {
  it.each([
    ["2026-11-29T10:00:05.120Z", Date.UTC(2026, 10, 29, 10, 0, 5, 120), ""],
    ["2026-11-29T11:00:05.120+01:00", Date.UTC(2026, 10, 29, 10, 0, 5, 120), ""],
    ["2026-11-29T05:30:05-04:30", Date.UTC(2026, 10, 29, 10, 0, 5), ""],
    ["2026-11-29t10:00:05.1234560z", Date.UTC(2026, 10, 29, 10, 0, 5, 123), "456"],
  ])("%s", (text, ms, sub) => {
    expect(parseInstant(text)).toEqual({ ms, sub });
  });

  it.each([
    "2026-11-29 10:00:05Z",
    "2026-11-29T10:00:05",
    "2026-13-01T00:00:00Z",
    "2026-11-29T24:00:00Z",
    "2026-11-29T10:00:05+1:00",
    "yesterday",
  ])("%s is not one", (text) => expect(parseInstant(text)).toBeNull());
});
