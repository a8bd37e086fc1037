import type { TMeterUnit } from "@/lib/contracts/timeline";
import { formatBytes } from "./bytes";
import { formatEdits } from "./edits";
import type { FormatOptions } from "./number";
import { formatRequests } from "./requests";
import { formatMinutes } from "./time";

/**
 * The one formatter of each meter unit of the timeline (values already in that unit: requests,
 * minutes, bytes, edits). A chart looks its formatter up by the unit its series carries, so a
 * value can only ever be printed in its own unit.
 */
export const UNIT_FORMATTERS: Readonly<Record<TMeterUnit, (value: number, options?: FormatOptions) => string>> = {
  requests: formatRequests,
  min: formatMinutes,
  bytes: formatBytes,
  edits: formatEdits,
};

export function formatInUnit(unit: TMeterUnit, value: number, options?: FormatOptions): string {
  return UNIT_FORMATTERS[unit](value, options);
}
