import { FINDING_CODES, type TFindingCode } from "@/lib/contracts";
import type { InjectedAnomaly } from "./etf-model";
import type { Rng } from "./prng";

/**
 * Where each requested anomaly should go: a target turn per (code, repeat), spread over the run.
 * An injection lands on the first turn at or after its target where it fits (a Reviewer anomaly
 * needs a checkpoint, a stage mismatch needs a reminder to mismatch, ...).
 */
export class AnomalyPlan {
  private readonly targets = new Map<TFindingCode, number[]>();
  readonly injected: InjectedAnomaly[] = [];
  readonly notInjected: { code: TFindingCode; reason: string }[] = [];

  constructor(
    readonly requested: readonly TFindingCode[],
    readonly repeats: number,
    turns: number,
    rng: Rng,
  ) {
    const slots: TFindingCode[] = [];
    for (const code of requested) {
      if (code === "GLOBAL_STOP_ON_LOCAL_QUOTA") continue; // it belongs to run.ended
      for (let r = 0; r < repeats; r++) slots.push(code);
    }
    const order = rng.shuffle(slots);
    order.forEach((code, i) => {
      const target = Math.floor(turns * (0.04 + (0.84 * (i + 0.5)) / order.length));
      const list = this.targets.get(code) ?? [];
      list.push(target);
      this.targets.set(code, list);
    });
    for (const list of this.targets.values()) list.sort((a, b) => a - b);
  }

  wants(code: TFindingCode): boolean {
    return this.requested.includes(code);
  }

  /** Whether an injection of `code` is waiting for a turn at or before `turn`. */
  due(code: TFindingCode, turn: number): boolean {
    const list = this.targets.get(code);
    return list !== undefined && list.length > 0 && list[0] <= turn;
  }

  /** The remaining target turns of a code (for the list phase, which scans after the facts exist). */
  pending(code: TFindingCode): number[] {
    return [...(this.targets.get(code) ?? [])];
  }

  /** Takes the next waiting injection of `code` (to be recorded or given up later). */
  take(code: TFindingCode): void {
    this.targets.get(code)?.shift();
  }

  record(code: TFindingCode, turn: number | null, note: string): void {
    this.injected.push({ code, turn, note });
  }

  fail(code: TFindingCode, reason: string): void {
    this.notInjected.push({ code, reason });
  }

  done(code: TFindingCode, turn: number | null, note: string): void {
    this.take(code);
    this.record(code, turn, note);
  }

  /** Gives up on whatever is still waiting, saying why. */
  abandon(code: TFindingCode, reason: string): void {
    const list = this.targets.get(code);
    while (list && list.length > 0) {
      list.shift();
      this.notInjected.push({ code, reason });
    }
  }

  abandonAll(reason: string): void {
    for (const code of this.targets.keys()) this.abandon(code, reason);
  }
}

export function requestedCodes(anomalies: boolean | readonly TFindingCode[] | undefined): TFindingCode[] {
  if (anomalies === true) return [...FINDING_CODES];
  if (!anomalies) return [];
  return FINDING_CODES.filter((code) => anomalies.includes(code));
}
