import { ScrollRegion } from "@/components/ui/scroll-region";

const METERS = [
  { meter: "requests", unit: "count", shown: "used / usable", ratio: "used ÷ (limit − delivery reserve)", owner: "budget", kind: "notice" },
  { meter: "time", unit: "ms", shown: "minutes", ratio: "elapsedMs ÷ limitMs", owner: "clock", kind: "notice" },
  {
    meter: "context",
    unit: "bytes",
    shown: "bytes of the final request",
    ratio: "requiredBytes ÷ capacityBytes",
    owner: "context assembler",
    kind: "notice",
  },
  {
    meter: "edits",
    unit: "count per block",
    shown: "used / limit, each block",
    ratio: "used ÷ block limit",
    owner: "publisher",
    kind: "state (every turn)",
  },
] as const;

export function MetersTable() {
  return (
    <ScrollRegion label="Meters and their units">
      <table className="data-table">
        <caption className="sr-only">Meters and their units</caption>
        <thead>
          <tr>
            <th scope="col">Meter</th>
            <th scope="col">Unit</th>
            <th scope="col">Shown as</th>
            <th scope="col">Stage ratio</th>
            <th scope="col">Fact owner</th>
            <th scope="col">Reminder</th>
          </tr>
        </thead>
        <tbody>
          {METERS.map((m) => (
            <tr key={m.meter}>
              <th scope="row">
                <code>{m.meter}</code>
              </th>
              <td>
                <span className="unit">{m.unit}</span>
              </td>
              <td>{m.shown}</td>
              <td className="mono">{m.ratio}</td>
              <td>{m.owner}</td>
              <td>{m.kind}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
