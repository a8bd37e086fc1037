import type { TEvent } from "@/lib/contracts";
import { compareCodePoints } from "./code-points";

export interface BlockFacts {
  readonly blockId: string;
  used: number;
  /** The block's own limit, once reported; it holds until another is reported. */
  ownLimit: number | undefined;
}

/**
 * MeterFacts as plain JSON, for a rebuild checkpoint: the readings, null where there is none, and
 * every block as `[blockId, used, ownLimit or null]` in blockId code-point order.
 */
export interface MeterFactsState {
  requestsUsed: number | null;
  elapsedMs: number | null;
  blocks: [blockId: string, used: number, ownLimit: number | null][];
}

/**
 * The latest meter readings in run order (contract §4): a reading tagged with turn t is a fact for t
 * and every later turn until a newer one. Facts are read from their owners, never invented: a
 * meter with no reading stays undefined.
 */
export class MeterFacts {
  requestsUsed: number | undefined;
  elapsedMs: number | undefined;
  readonly blocks = new Map<string, BlockFacts>();
  /** The same blocks in blockId code-point order, kept sorted as blocks appear. */
  readonly blockList: BlockFacts[] = [];

  /** The facts as plain JSON (a copy: later readings do not change it). */
  snapshot(): MeterFactsState {
    return {
      requestsUsed: this.requestsUsed ?? null,
      elapsedMs: this.elapsedMs ?? null,
      blocks: this.blockList.map(({ blockId, used, ownLimit }) => [blockId, used, ownLimit ?? null]),
    };
  }

  /** Facts equal to the ones `snapshot` was taken of. */
  static restore(state: MeterFactsState): MeterFacts {
    const facts = new MeterFacts();
    facts.requestsUsed = state.requestsUsed ?? undefined;
    facts.elapsedMs = state.elapsedMs ?? undefined;
    for (const [blockId, used, ownLimit] of state.blocks) {
      const block: BlockFacts = { blockId, used, ownLimit: ownLimit ?? undefined };
      facts.blocks.set(blockId, block);
      insertSorted(facts.blockList, block);
    }
    return facts;
  }

  /** Takes the reading if the event is one; returns whether it was. */
  apply(event: TEvent): boolean {
    switch (event.type) {
      case "meter.requests":
        this.requestsUsed = event.body.used;
        return true;
      case "meter.time":
        this.elapsedMs = event.body.elapsedMs;
        return true;
      case "block.edited": {
        const { blockId, used, limit } = event.body;
        const block = this.blocks.get(blockId);
        if (block) {
          block.used = used;
          if (limit !== undefined) block.ownLimit = limit;
        } else {
          const added: BlockFacts = { blockId, used, ownLimit: limit };
          this.blocks.set(blockId, added);
          insertSorted(this.blockList, added);
        }
        return true;
      }
      default:
        return false;
    }
  }
}

function insertSorted(blocks: BlockFacts[], block: BlockFacts): void {
  let at = blocks.length;
  while (at > 0 && compareCodePoints(blocks[at - 1].blockId, block.blockId) > 0) at--;
  blocks.splice(at, 0, block);
}
