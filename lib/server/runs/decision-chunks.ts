import type { TTurnDecision } from "@/lib/contracts";

/**
 * How many turn decisions one stored chunk holds (run_decision_chunks): chunk k holds the run's
 * decisions' turns [k * N, (k + 1) * N), by index, not by turn number. About 1.3 kB a generated
 * turn, so a chunk is a few hundred kB of JSON: what a read of one turn parses.
 */
export const DECISION_CHUNK_TURNS = 256;

/** One stored chunk of a run's turns, as the rebuild writes it. */
export interface DecisionChunk {
  chunk: number;
  firstTurn: number;
  lastTurn: number;
  turnCount: number;
  /** `JSON.stringify` of the chunk's turns (a JSON array). */
  json: string;
}

/** The chunk that holds the turn at `index` of the decisions' turns. */
export function chunkOfIndex(index: number): number {
  return Math.floor(index / DECISION_CHUNK_TURNS);
}

/**
 * The chunks of `turns` (all of a run's turns from index `fromChunk * DECISION_CHUNK_TURNS` on),
 * numbered from `fromChunk`, each stringified on its own.
 */
export function chunksOf(turns: readonly TTurnDecision[], fromChunk = 0): DecisionChunk[] {
  const chunks: DecisionChunk[] = [];
  for (let at = 0; at < turns.length; at += DECISION_CHUNK_TURNS) {
    const part = turns.slice(at, at + DECISION_CHUNK_TURNS);
    chunks.push({
      chunk: fromChunk + at / DECISION_CHUNK_TURNS,
      firstTurn: part[0].turn,
      lastTurn: part[part.length - 1].turn,
      turnCount: part.length,
      json: JSON.stringify(part),
    });
  }
  return chunks;
}

/**
 * The RunDecisions JSON text from its stored parts, without parsing them: exactly
 * `JSON.stringify({ runId, turns, findings })` when the chunk texts are the stringified chunks of
 * `turns` in order and `findingsJson` is the stringified findings.
 */
export function decisionsJsonOf(runId: string, chunkTexts: readonly string[], findingsJson: string): string {
  const inner = chunkTexts.map((text) => text.slice(1, -1)).filter((text) => text.length > 0);
  return `{"runId":${JSON.stringify(runId)},"turns":[${inner.join(",")}],"findings":${findingsJson}}`;
}
