import type { Attributes, JsonValue } from "./model";

/**
 * GenAI semantic conventions (OpenTelemetry `gen_ai.*`; docs/contract/otlp.md#genai-spans): a span
 * with gen_ai.operation.name, gen_ai.provider.name or gen_ai.system is one model request. Token
 * counts are what the provider reported, in tokens; they are never turned into bytes.
 */
export function isGenAiSpan(attributes: Attributes): boolean {
  return ["gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.system"].some((key) => Object.hasOwn(attributes, key));
}

function text(attributes: Attributes, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = attributes[key];
    if (Object.hasOwn(attributes, key) && typeof value === "string" && value !== "") return value;
  }
  return null;
}

function tokens(attributes: Attributes, ...keys: string[]): number | null {
  for (const key of keys) {
    const value = attributes[key];
    if (Object.hasOwn(attributes, key) && typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  }
  return null;
}

/** The fields a model request record adds to a span's data (null where the span does not say). */
export function modelRequestFields(attributes: Attributes): { [key: string]: JsonValue } {
  const requestModel = text(attributes, "gen_ai.request.model");
  const responseModel = text(attributes, "gen_ai.response.model");
  return {
    operation: text(attributes, "gen_ai.operation.name"),
    provider: text(attributes, "gen_ai.provider.name", "gen_ai.system"),
    model: responseModel ?? requestModel,
    requestModel,
    responseModel,
    inputTokens: tokens(attributes, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"),
    outputTokens: tokens(attributes, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"),
  };
}
