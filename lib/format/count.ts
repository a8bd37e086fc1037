import { formatNumber } from "./number";

/**
 * A count of things in words: "1 finding", "2 findings", "1,204 turns". The plural is the noun with
 * an "s" unless given ("1 match", "3 matches").
 */
export function formatCount(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatNumber(n)} ${n === 1 ? noun : plural}`;
}
