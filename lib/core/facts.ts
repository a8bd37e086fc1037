import type { TEvent } from "../contracts";
import { compareCodePoints } from "./code-points";

export interface BlockFacts {
  used: number;
  /** The block's own limit, once reported; it holds until another is reported. */
  ownLimit: number | undefined;
}

/**
 * The latest meter readings in run order (SPEC §4): a reading tagged with turn t is a fact for t
 * and every later turn until a newer one. Facts are read from their owners, never invented: a
 * meter with no reading stays undefined.
 */
export class MeterFacts {
  requestsUsed: number | undefined;
  elapsedMs: number | undefined;
  readonly blocks = new Map<string, BlockFacts>();
  /** Block ids in code-point order, kept sorted as blocks appear. */
  readonly blockIds: string[] = [];

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
          this.blocks.set(blockId, { used, ownLimit: limit });
          insertSorted(this.blockIds, blockId);
        }
        return true;
      }
      default:
        return false;
    }
  }
}

function insertSorted(ids: string[], id: string): void {
  let at = ids.length;
  while (at > 0 && compareCodePoints(ids[at - 1], id) > 0) at--;
  ids.splice(at, 0, id);
}
