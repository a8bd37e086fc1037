import { z } from "zod";
import { show, zStorableString } from "./primitives";
import { REMINDER_KEYS, type TReminderKey } from "./reminders";

/** The placeholders each key's templates may use (contract §5). */
export const PLACEHOLDERS: Record<TReminderKey, readonly string[]> = {
  requests: ["used", "limit", "reserve", "usable", "remaining", "percent", "stage"],
  time: ["elapsedMs", "limitMs", "elapsedMin", "limitMin", "remainingMin", "percent", "stage"],
  context: ["requiredBytes", "capacityBytes", "freeBytes", "percent", "stage"],
  edits: ["blockId", "used", "limit", "remaining", "percent", "stage"],
  review: ["checkpoint", "turn"],
};

/** `{name}` with a name of letters only; any other brace is literal text. */
export const PLACEHOLDER_PATTERN = /\{([A-Za-z]+)\}/g;

const STAGE_NAME = /^[1-9][0-9]*$/;

function templateNameProblem(key: TReminderKey, name: string): string | null {
  if (name === "*" || STAGE_NAME.test(name)) return null;
  if (name === "exhausted") return key === "edits" ? null : `template "exhausted" exists only for key "edits"`;
  return `unknown template name ${JSON.stringify(name)} for key "${key}": expected "*", a stage number (1, 2, ...)${key === "edits" ? ' or "exhausted"' : ""}`;
}

/** The templates of one key: `*` required, stage numbers, and `exhausted` for edits. */
function zTemplates(key: TReminderKey) {
  return z
    .record(
      z.string(),
      zStorableString((iss) => `expected template text (string), got ${show(iss.input)}`),
      {
        error: (iss) => `expected an object of templates, got ${show(iss.input)}`,
      },
    )
    .superRefine((templates, ctx) => {
      if (!("*" in templates)) {
        ctx.addIssue({ code: "custom", path: ["*"], message: `key "${key}" needs a "*" template`, input: templates });
      }
      for (const [name, text] of Object.entries(templates)) {
        const nameProblem = templateNameProblem(key, name);
        if (nameProblem) ctx.addIssue({ code: "custom", path: [name], message: nameProblem, input: name });
        for (const match of text.matchAll(PLACEHOLDER_PATTERN)) {
          if (!PLACEHOLDERS[key].includes(match[1])) {
            ctx.addIssue({
              code: "custom",
              path: [name],
              message: `unknown placeholder {${match[1]}} in template "${name}" of key "${key}" (allowed: ${PLACEHOLDERS[key].map((p) => `{${p}}`).join(" ")})`,
              input: text,
            });
          }
        }
      }
    });
}

/** Copy: key → template name → text. Unknown keys are errors. */
export const ZCopy = z.strictObject(
  Object.fromEntries(REMINDER_KEYS.map((key) => [key, zTemplates(key).optional()])) as {
    [K in TReminderKey]: z.ZodOptional<ReturnType<typeof zTemplates>>;
  },
  {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? `unknown copy ${iss.keys.length > 1 ? "keys" : "key"} ${iss.keys.map((k) => JSON.stringify(k)).join(", ")} (expected ${REMINDER_KEYS.join(", ")})`
        : `expected a copy object, got ${show(iss.input)}`,
  },
);

export type TCopy = z.infer<typeof ZCopy>;
export type TTemplates = Record<string, string>;
