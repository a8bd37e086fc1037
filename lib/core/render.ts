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
 * Template lookup (contract §5), the one implementation: the name of the template a reminder takes.
 * For `edits` of an exhausted block it is `exhausted` if there is one; else the exact stage's (for
 * `review`, the checkpoint's); else `*`. The rebuild renders the template it names (`pickTemplate`),
 * and the copy editor marks that template as the one in use.
 */
export function templateName(templates: Readonly<TTemplates>, stage: number, exhausted = false): string {
  if (exhausted && templates.exhausted !== undefined) return "exhausted";
  const name = String(stage);
  return templates[name] !== undefined ? name : "*";
}

/**
 * The text of the template lookup names (`templateName`). A valid copy always has `*`; only a draft
 * being edited can lack it, and then the text is empty.
 */
export function pickTemplate(templates: Readonly<TTemplates>, stage: number, exhausted = false): string {
  return templates[templateName(templates, stage, exhausted)] ?? "";
}

/**
 * Placeholder filling (contract §5), the one implementation: `{name}` becomes its value, a plain
 * decimal integer or text; an unknown name and other braces stay literal. The template is split once
 * into literal text and placeholder names, so that rendering it again is a plain concatenation: the
 * rebuild keeps one per template (`ReminderRenderer`). `fast-paths.test.ts` checks it against a
 * plain regex replacement.
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

/** Fills one template once: a `CompiledTemplate` used a single time. */
export function fillTemplate(template: string, values: Readonly<Record<string, number | string>>): string {
  return new CompiledTemplate(template).render(values);
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
