/** Contract §11: context parts and cached tokens on request.final — validation, and what the rebuild passes through. */
import { describe, expect, it } from "vitest";
import { problemsFrom, ZEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core/index";
import { CTX, json, REQ, rem, run, turnOf } from "./builders";

const envelope = { id: "e-1", runId: "r", type: "request.final", ts: "2026-11-29T10:00:00Z", turn: 3 };

/** The problems of one request.final body, as the API and the rebuild command report them. */
function problems(body: unknown): string[] {
  const parsed = ZEvent.safeParse({ ...envelope, body });
  return parsed.success ? [] : problemsFrom(parsed.error).map((p) => `${p.path}: ${p.message}`);
}

describe("§11 validation of request.final's additions", () => {
  it.each([
    { name: "a v1 body", body: { requiredBytes: 100 } },
    { name: "v1 with provider tokens", body: { requiredBytes: 100, providerTokens: 30 } },
    {
      name: "every part, summing to exactly requiredBytes",
      body: { requiredBytes: 60, contextParts: { system: 10, tools: 10, history: 10, retrieved: 10, reminders: 10, other: 10 } },
    },
    { name: "some parts, below requiredBytes", body: { requiredBytes: 100, contextParts: { history: 40 } } },
    { name: "no parts at all", body: { requiredBytes: 0, contextParts: {} } },
    { name: "zeros", body: { requiredBytes: 0, contextParts: { system: 0, history: 0 } } },
    { name: "an unknown part is ignored", body: { requiredBytes: 5, contextParts: { images: 900, system: 5 } } },
    { name: "cached tokens equal to the tokens", body: { requiredBytes: 5, providerTokens: 7, providerCachedTokens: 7 } },
  ])("accepts $name", ({ body }) => {
    expect(problems(body)).toEqual([]);
  });

  it.each([
    {
      name: "a negative part",
      body: { requiredBytes: 100, contextParts: { history: -5 } },
      expected: ["body.contextParts.history: expected integer >= 0, got -5"],
    },
    {
      name: "a fractional part",
      body: { requiredBytes: 100, contextParts: { tools: 1.5 } },
      expected: ["body.contextParts.tools: expected integer >= 0, got 1.5"],
    },
    {
      name: "a part as text",
      body: { requiredBytes: 100, contextParts: { system: "12" } },
      expected: ['body.contextParts.system: expected integer >= 0, got "12"'],
    },
    {
      name: "parts that are not an object",
      body: { requiredBytes: 100, contextParts: [1, 2] },
      expected: ["body.contextParts: expected object, got array"],
    },
    {
      name: "parts summing above requiredBytes",
      body: { requiredBytes: 100, contextParts: { system: 60, history: 41 } },
      expected: ["body.contextParts: the parts sum to 101 bytes, more than requiredBytes (100)"],
    },
    {
      name: "cached tokens above the tokens",
      body: { requiredBytes: 100, providerTokens: 10, providerCachedTokens: 11 },
      expected: ["body.providerCachedTokens: 11 cached tokens is more than providerTokens (10)"],
    },
    {
      name: "cached tokens without tokens",
      body: { requiredBytes: 100, providerCachedTokens: 3 },
      expected: ["body.providerCachedTokens: sent without providerTokens, of which it is a part"],
    },
  ])("rejects $name, naming the field", ({ body, expected }) => {
    expect(problems(body)).toEqual(expected);
  });
});

describe("§11 the rebuild passes the parts through and no rule reads them", () => {
  const policy = { requests: REQ, context: CTX };

  it("a turn with parts has them beside requiredBytes, in the contract's order, and nothing else", () => {
    const d = json(
      rebuild(
        run({ policy })
          .turn(0, (t) => t.finalWith({ requiredBytes: 5000, contextParts: { other: 1, history: 3000, images: 7, system: 1000 } }).ok())
          .events(),
      ),
    );
    const turn = turnOf(d, 0);
    expect(turn.contextParts).toEqual({ system: 1000, history: 3000, other: 1 });
    expect(Object.keys(turn.contextParts!)).toEqual(["system", "history", "other"]);
    expect(Object.keys(turn)).toEqual([
      "turn",
      "requiredBytes",
      "capacityBytes",
      "freeBytesAfter",
      "contextParts",
      "meters",
      "reminders",
      "reviewer",
    ]);
  });

  it("a turn without them has no such field (a v1 run's output is unchanged)", () => {
    const d = json(
      rebuild(
        run({ policy })
          .turn(0, (t) => t.final(5000).ok())
          .events(),
      ),
    );
    expect(Object.keys(turnOf(d, 0))).toEqual([
      "turn",
      "requiredBytes",
      "capacityBytes",
      "freeBytesAfter",
      "meters",
      "reminders",
      "reviewer",
    ]);
  });

  it("the turn's last request.final gives its parts, as it gives requiredBytes (R9)", () => {
    const d = json(
      rebuild(
        run({ policy })
          .turn(2, (t) =>
            t
              .finalWith({ requiredBytes: 9000, contextParts: { history: 8000 } })
              .compaction(9000, 4000, "adopted")
              .finalWith({ requiredBytes: 4000, contextParts: { history: 3000 } })
              .ok(),
          )
          .turn(3, (t) =>
            t
              .finalWith({ requiredBytes: 9100, contextParts: { history: 8100 } })
              .final(9100)
              .ok(),
          )
          .events(),
      ),
    );
    expect(turnOf(d, 2)).toMatchObject({ requiredBytes: 4000, contextParts: { history: 3000 } });
    // The last request.final of turn 3 carried no parts: none are shown (an earlier one's are not borrowed).
    expect(turnOf(d, 3).contextParts).toBeUndefined();
  });

  it("stages, reminders and findings are the same with and without parts", () => {
    const build = (withParts: boolean) =>
      run({ policy })
        .turn(0, (t) =>
          t
            .requests(28)
            .finalWith(withParts ? { requiredBytes: 9962, contextParts: { system: 9000 } } : { requiredBytes: 9962 })
            .ok([rem("requests", 2)]),
        )
        .turn(1, (t) =>
          t
            .requests(30)
            .finalWith(
              withParts
                ? { requiredBytes: 9990, providerTokens: 9, providerCachedTokens: 2, contextParts: { tools: 1 } }
                : { requiredBytes: 9990 },
            )
            .ok(),
        )
        .events();
    const strip = (d: ReturnType<typeof rebuild>) => json({ ...d, turns: d.turns.map(({ contextParts: _, ...turn }) => turn) });
    expect(strip(rebuild(build(true)))).toEqual(json(rebuild(build(false))));
  });
});
