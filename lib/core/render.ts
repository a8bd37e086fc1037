import { PLACEHOLDER_PATTERN, type TCopy, type TReminderKey, type TTemplates } from "@/lib/contracts";
import { DEFAULT_COPY } from "./default-copy";

/** The copy a run renders with: the given copy replaces the default key by key (contract §5). */
export type TResolvedCopy = Readonly<Record<TReminderKey, Readonly<TTemplates>>>;

export function resolveCopy(copy: TCopy | undefined): TResolvedCopy {
  return {
    requests: copy?.requests ?? DEFAULT_COPY.requests,
    time: copy?.time ?? DEFAULT_COPY.time,
    context: copy?.context ?? DEFAULT_COPY.context,
    edits: copy?.edits ?? DEFAULT_COPY.edits,
    review: copy?.review ?? DEFAULT_COPY.review,
  };
}

/**
 * Template lookup: for `edits` of an exhausted block the `exhausted` template if there is one; else
 * the template for the exact stage (for `review`, the checkpoint); else `*`.
 */
export function pickTemplate(templates: Readonly<TTemplates>, stage: number, exhausted = false): string {
  if (exhausted && templates.exhausted !== undefined) return templates.exhausted;
  return templates[String(stage)] ?? templates["*"];
}

/** Replaces `{name}` placeholders with plain decimal integers or text; other braces stay literal. */
export function fillTemplate(template: string, values: Readonly<Record<string, number | string>>): string {
  return template.replace(PLACEHOLDER_PATTERN, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : typeof value === "number" ? integerText(value) : value;
  });
}

/**
 * A template split once into literal text and placeholder names, so that rendering it again is a
 * plain concatenation instead of a regex pass with a callback. `render` gives exactly what
 * `fillTemplate` gives for the same template and values.
 */
export class CompiledTemplate {
  /** literals[i] comes before names[i]; the last literal ends the text. */
  private readonly literals: string[] = [];
  private readonly names: string[] = [];

  constructor(readonly template: string) {
    const pattern = new RegExp(PLACEHOLDER_PATTERN.source, "g");
    let from = 0;
    for (let match = pattern.exec(template); match !== null; match = pattern.exec(template)) {
      this.literals.push(template.slice(from, match.index));
      this.names.push(match[1]);
      from = match.index + match[0].length;
    }
    this.literals.push(template.slice(from));
  }

  render(values: Readonly<Record<string, number | string>>): string {
    const { literals, names } = this;
    let text = literals[0];
    for (let i = 0; i < names.length; i++) {
      const value = values[names[i]];
      text += value === undefined ? `{${names[i]}}` : typeof value === "number" ? integerText(value) : value;
      text += literals[i + 1];
    }
    return text;
  }
}

function integerText(value: number): string {
  return Number.isSafeInteger(value) ? String(value) : BigInt(Math.trunc(value)).toString();
}

/** UTF-8 byte length of a string (lone surrogates count as U+FFFD, 3 bytes, as an encoder writes them). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** A reminder's cost: its text's UTF-8 bytes plus the newline that ends it (R8). */
export function reminderCost(text: string): number {
  return utf8Length(text) + 1;
}
