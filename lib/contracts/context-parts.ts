import { z } from "zod";
import { ZCount } from "./primitives";

/**
 * Contract §11: the parts of a final request, in the order the contract's table lists them (the
 * order the rebuild writes them and the charts stack them, bottom first).
 */
export const CONTEXT_PARTS = ["system", "tools", "history", "retrieved", "reminders", "other"] as const;
export type TContextPart = (typeof CONTEXT_PARTS)[number];

const PART_DESCRIPTIONS: Record<TContextPart, string> = {
  system: "The system prompt and standing instructions (bytes).",
  tools: "Tool and function definitions (bytes).",
  history: "Earlier turns: messages, tool calls and their results (bytes).",
  retrieved: "Material retrieved for this request (bytes).",
  reminders: "Reminders of earlier turns still carried in the request; this turn's are fitted after (bytes).",
  other: "Anything else the assembler counts (bytes).",
};

/** `request.final`'s optional `contextParts`: each part an integer >= 0 in bytes, each optional (absent: not known). */
export const ZContextParts = z.object(
  Object.fromEntries(CONTEXT_PARTS.map((part) => [part, ZCount.optional().meta({ description: PART_DESCRIPTIONS[part] })])) as {
    [P in TContextPart]: z.ZodOptional<typeof ZCount>;
  },
);
export type TContextParts = z.infer<typeof ZContextParts>;

/** The sum of the parts that were sent (bytes). */
export function contextPartsTotal(parts: TContextParts): number {
  let total = 0;
  for (const part of CONTEXT_PARTS) total += parts[part] ?? 0;
  return total;
}

/** The parts that were sent, in contract order and nothing else (what the rebuild passes through). */
export function orderedContextParts(parts: TContextParts): TContextParts {
  const out: TContextParts = {};
  for (const part of CONTEXT_PARTS) if (parts[part] !== undefined) out[part] = parts[part];
  return out;
}

interface RequestFinalBody {
  requiredBytes: number;
  providerTokens?: number;
  providerCachedTokens?: number;
  contextParts?: TContextParts;
}

/** Contract §11's cross-field rules of `request.final`, each naming the field it is about. */
export function checkRequestFinal(body: RequestFinalBody, ctx: z.RefinementCtx): void {
  if (body.contextParts) {
    const total = contextPartsTotal(body.contextParts);
    if (total > body.requiredBytes) {
      ctx.addIssue({
        code: "custom",
        path: ["contextParts"],
        message: `the parts sum to ${total} bytes, more than requiredBytes (${body.requiredBytes})`,
      });
    }
  }
  if (body.providerCachedTokens !== undefined) {
    if (body.providerTokens === undefined) {
      ctx.addIssue({ code: "custom", path: ["providerCachedTokens"], message: "sent without providerTokens, of which it is a part" });
    } else if (body.providerCachedTokens > body.providerTokens) {
      ctx.addIssue({
        code: "custom",
        path: ["providerCachedTokens"],
        message: `${body.providerCachedTokens} cached tokens is more than providerTokens (${body.providerTokens})`,
      });
    }
  }
}
