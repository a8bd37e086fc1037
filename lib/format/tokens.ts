import { formatNumber } from "./number";

/**
 * Provider-reported tokens (OpenTelemetry GenAI spans; docs/contract/otlp.md#genai-spans): always
 * labelled tokens, never bytes. "1,234 tokens", "—" when the provider did not report them.
 */
export function formatTokens(n: number | null): string {
  if (n === null) return "—";
  return `${formatNumber(n)} ${n === 1 ? "token" : "tokens"}`;
}
