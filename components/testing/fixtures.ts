/**
 * Contract data for the component tests, built the way the core's conformance suite builds it
 * (lib/core/spec/builders) and rebuilt by the real core, so a component sees what the API serves.
 */
import { rebuild } from "../../lib/core";
import { CTX, EDITS, json, REQ, rem, run, TEACH_COPY, turnOf } from "../../lib/core/spec/builders";

export { TEACH_COPY };

/** The contract §9 teaching policy: requests, context, edits meters, review every 10 turns. */
export const teachPolicy = {
  requests: REQ,
  context: CTX,
  edits: EDITS,
  review: { everyTurns: 10 },
  reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 },
};

/** Turn 10 has 38 free bytes: requests (19 B) and edits fit, context and review… see lib/copy/copy.test.ts. */
export const teaching = json(
  rebuild(
    run({ runId: "teach", policy: teachPolicy, copy: TEACH_COPY })
      .turn(9, (t) => t.requests(17).final(5000).ok([]))
      .turn(10, (t) => t.requests(28).final(9962).block("b1", 2).ok([rem("requests", 2), rem("edits", 1, "b1")]))
      .turn(11, (t) => t.requests(29).final(8000).ok([]))
      .events(),
  ),
);

export const turn10 = turnOf(teaching, 10);
