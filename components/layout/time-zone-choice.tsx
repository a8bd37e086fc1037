"use client";

import { useId, useSyncExternalStore } from "react";
import { isKnownZone, LOCAL_CHOICE } from "@/lib/format/zone";
import { useTimeZone } from "./time-zone";

/** Current names the browser may list under an older one (Chromium lists Asia/Calcutta, not Asia/Kolkata). */
const CURRENT_NAMES = [
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Yangon",
  "Asia/Ho_Chi_Minh",
  "Europe/Kyiv",
  "America/Nuuk",
  "Atlantic/Faroe",
];

let zonesOnce: string[] | undefined;

/** Every IANA zone the browser knows (with the current names of renamed ones), UTC aside, sorted; worked out once. */
function knownZones(): string[] {
  if (zonesOnce) return zonesOnce;
  const zones = new Set(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []);
  for (const zone of CURRENT_NAMES) if (isKnownZone(zone)) zones.add(zone);
  zones.delete("UTC");
  return (zonesOnce = [...zones].sort());
}

const noChanges = () => () => {};

/**
 * The Account menu's time zone: Local (the browser's), UTC, or any IANA zone; kept in a cookie. The
 * server renders the choice alone (every page has two of these menus, and the list is 400 zones,
 * which made 50 kB of a page's 85 kB of HTML); the browser adds the list once the page is hydrated.
 */
export function TimeZoneChoice() {
  const id = useId();
  const { choice, localZone, choose } = useTimeZone();
  const hydrated = useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
  const zones = hydrated ? knownZones() : [];
  return (
    <div className="tz-choice">
      <label htmlFor={id}>Time zone</label>
      <select id={id} value={choice} onChange={(e) => choose(e.target.value)}>
        <option value={LOCAL_CHOICE}>Local (browser: {localZone})</option>
        <option value="UTC">UTC</option>
        {choice !== LOCAL_CHOICE && choice !== "UTC" && !zones.includes(choice) && <option value={choice}>{choice}</option>}
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </select>
    </div>
  );
}
