/** One formatter per unit (architecture habit 8); every one passes locale "en-US" explicitly. */
export { formatNumber, type FormatOptions } from "./number";
export { formatCount } from "./count";
export { formatRequests } from "./requests";
export { formatMinutes, formatMs, msToMinutes, MS_PER_MINUTE } from "./time";
export { formatBytes } from "./bytes";
export { formatEdits } from "./edits";
export { formatPercent } from "./percent";
export { formatTurn, formatTurnRange, formatTurnCount } from "./turn";
export { formatInstant, formatRelative } from "./instant";
export { formatRequestsUsage, formatTimeUsage, requestsUsageParts } from "./usage";
export { UNIT_FORMATTERS, formatInUnit } from "./unit";
export { formatTokens } from "./tokens";
export { formatLatency } from "./latency";
export {
  formatInstantIn,
  dayIn,
  shiftDay,
  zoneLabel,
  parseZoneChoice,
  resolveZone,
  isKnownZone,
  zoneCookie,
  TZ_COOKIE,
  LOCAL_TZ_COOKIE,
  LOCAL_CHOICE,
} from "./zone";
