import type { TDeliveryStatus, TReminderKey, TTurnDecision } from "@/lib/contracts";

/** One reminder placed (or not) into the bytes left in the final request (R8). */
export interface FitStep {
  key: TReminderKey;
  subject: string | null;
  stage: number;
  /** Its cost: UTF-8 bytes of the text plus the newline. */
  bytes: number;
  status: TDeliveryStatus;
  /** Whether it was included (any status but dropped). */
  fits: boolean;
  /** Free bytes when its turn to fit came; null when the policy sets no byte limit. */
  freeBefore: number | null;
  /** Free bytes after it (unchanged when it was dropped); null without a byte limit. */
  freeAfter: number | null;
  /** Bytes of the reminders included before it: where its bar starts. */
  offset: number;
  /** For a dropped reminder, how many bytes it lacked (bytes − freeBefore); else 0. */
  shortBy: number;
}

export interface Waterfall {
  requiredBytes: number;
  capacityBytes: number | null;
  /** capacity − required before fitting (may be negative); null without a context section. */
  freeStart: number | null;
  /** Free bytes after fitting, as the rebuild recorded it (`freeBytesAfter`). */
  freeEnd: number | null;
  steps: FitStep[];
  includedBytes: number;
  droppedCount: number;
  /**
   * Byte span the per-reminder bars are drawn against, >= 1: the free bytes when they are of the
   * same order as the costs, else the costs alone (so a 90 B reminder is never a hairline).
   */
  scale: number;
  /** Whether the free-bytes line (freeStart, or 0 when negative) falls inside the scale. */
  limitInScale: boolean;
}

/** Beyond this many times the total cost, the free region is not drawn to scale. */
const MAX_ZOOM_OUT = 4;

/**
 * The fitting of a rebuilt turn, step by step (R8): the final request's required bytes, then each
 * reminder's cost in presentation order and the free bytes left after it. A dropped reminder's free
 * bytes are the ones the rebuild recorded at that moment.
 */
export function fittingWaterfall(
  decision: Pick<TTurnDecision, "requiredBytes" | "capacityBytes" | "freeBytesAfter" | "reminders">,
): Waterfall {
  const { requiredBytes, capacityBytes } = decision;
  const freeStart = capacityBytes === null ? null : capacityBytes - requiredBytes;
  let free = freeStart;
  let offset = 0;
  let droppedCount = 0;
  const steps: FitStep[] = decision.reminders.map((r) => {
    const fits = r.status !== "dropped";
    const freeBefore = fits ? free : (r.freeBytes ?? free);
    const freeAfter = freeBefore === null ? null : fits ? freeBefore - r.bytes : freeBefore;
    const step: FitStep = {
      key: r.key,
      subject: r.subject,
      stage: r.stage,
      bytes: r.bytes,
      status: r.status,
      fits,
      freeBefore,
      freeAfter,
      offset,
      shortBy: !fits && freeBefore !== null ? r.bytes - freeBefore : 0,
    };
    if (fits) {
      offset += r.bytes;
      free = freeAfter;
    } else droppedCount++;
    return step;
  });
  const reach = steps.reduce((max, s) => Math.max(max, s.offset + s.bytes), 0);
  const scale = Math.max(1, reach, freeStart !== null && freeStart <= reach * MAX_ZOOM_OUT ? freeStart : 0);
  return {
    requiredBytes,
    capacityBytes,
    freeStart,
    freeEnd: decision.freeBytesAfter ?? free,
    steps,
    includedBytes: offset,
    droppedCount,
    scale,
    limitInScale: freeStart !== null && freeStart <= scale,
  };
}

/** A bar's share of the waterfall's scale, as a CSS percentage clamped to [0, 100]. */
export function barPercent(bytes: number, scale: number): number {
  if (scale <= 0) return 0;
  return Math.min(100, Math.max(0, (bytes / scale) * 100));
}
