/**
 * A small, safe Markdown subset for comments (docs/comments.md#safety), parsed into a plain tree
 * that components/ui/markdown.tsx turns into React elements — never into HTML text, so nothing a
 * comment says can become markup. What it knows:
 * - blocks: paragraphs (a single line break stays a line break), fenced code blocks (``` or ~~~),
 *   and lists (`-`, `*`, `+`, or `1.` / `1)`), one level, a following indented line continuing an item;
 * - inline: `code`, **strong** / __strong__, *emphasis* / _emphasis_, [links](url), `<https://…>`,
 *   backslash escapes, and the HTML entities &amp; &lt; &gt; &quot; &#39; and numeric ones (as text).
 * Everything else (raw HTML included) is text. A link keeps its target only when it is http(s) or
 * relative (no other scheme, no white space or control characters); otherwise only its text shows.
 * Pure: no React, no DOM.
 */

export type MdInline =
  | { type: "text"; text: string }
  | { type: "break" }
  | { type: "code"; text: string }
  | { type: "strong"; children: MdInline[] }
  | { type: "em"; children: MdInline[] }
  | { type: "link"; href: string; children: MdInline[] };

export type MdBlock =
  | { type: "paragraph"; children: MdInline[] }
  | { type: "code_block"; text: string; lang: string | null }
  | { type: "list"; ordered: boolean; start: number; items: MdInline[][] };

/** The `rel` every rendered link carries: no opener access, no referrer, no endorsement. */
export const LINK_REL = "noopener noreferrer nofollow";

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const LIST_ITEM = /^ {0,3}(?:([-*+])|(\d{1,9})([.)]))[ \t]+(.*)$/;
const CONTINUATION = /^(?: {2,}|\t)(\S.*)$/;

export function parseMarkdown(source: string): MdBlock[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: MdBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n")) });
    paragraph = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1];
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !isClosingFence(lines[j], marker)) body.push(lines[j++]);
      blocks.push({ type: "code_block", text: body.join("\n"), lang: fence[2] ? fence[2].slice(0, 40) : null });
      i = j; // the closing fence (or past the end)
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      const ordered = item[1] === undefined;
      const kind = ordered ? item[3] : item[1];
      const texts: string[] = [item[4]];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const next = LIST_ITEM.exec(lines[j]);
        if (next && (next[1] === undefined) === ordered && (ordered ? next[3] : next[1]) === kind) {
          texts.push(next[4]);
          continue;
        }
        const more = CONTINUATION.exec(lines[j]);
        if (more && !LIST_ITEM.exec(lines[j])) {
          texts[texts.length - 1] += `\n${more[1]}`;
          continue;
        }
        break;
      }
      blocks.push({ type: "list", ordered, start: ordered ? Number(item[2]) : 1, items: texts.map((text) => parseInline(text)) });
      i = j - 1;
      continue;
    }
    if (line.trim() === "") flush();
    else paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

function isClosingFence(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= marker.length && trimmed[0] === marker[0] && /^(`+|~+)$/.test(trimmed) && line.search(/\S/) <= 3;
}

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;
const ENTITY = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos|#39|nbsp));/;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** An entity at the start of `text` as [its character, its length], or null. */
function entityAt(text: string): [string, number] | null {
  const match = ENTITY.exec(text);
  if (!match) return null;
  const code = match[1] !== undefined ? Number(match[1]) : match[2] !== undefined ? parseInt(match[2], 16) : null;
  if (code === null) return [NAMED[match[3]], match[0].length];
  const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  return [valid ? String.fromCodePoint(code) : "\ufffd", match[0].length];
}

/** Decodes the entities this renderer knows (links are checked after decoding). */
export function decodeEntities(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const entity = text[i] === "&" ? entityAt(text.slice(i, i + 12)) : null;
    if (entity) {
      out += entity[0];
      i += entity[1] - 1;
    } else out += text[i];
  }
  return out;
}

/**
 * The link target to render, or null when it is not safe: http(s) (or protocol-relative) URLs and
 * relative ones (`/runs`, `./x`, `#turn`, `?q=`, `notes.md`) only. Anything with another scheme
 * (`javascript:`, `data:`, `vbscript:`, `file:` …), white space or control characters is refused,
 * after entities are decoded, so `javascript&colon;…` is refused too.
 */
export function safeHref(raw: string): string | null {
  const href = decodeEntities(raw);
  if (href === "" || href.length > 2048) return null;
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/.test(href)) return null;
  const scheme = /^([^/?#]*?):/.exec(href);
  if (!scheme) return href;
  return /^https?$/i.test(scheme[1]) ? href : null;
}

export function parseInline(text: string): MdInline[] {
  const out: MdInline[] = [];
  let buffer = "";
  const push = (node: MdInline) => {
    if (buffer) out.push({ type: "text", text: buffer });
    buffer = "";
    out.push(node);
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length && PUNCTUATION.test(text[i + 1])) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (c === "\n") {
      push({ type: "break" });
      i++;
      continue;
    }
    if (c === "&") {
      const entity = entityAt(text.slice(i, i + 12));
      if (entity) {
        buffer += entity[0];
        i += entity[1];
        continue;
      }
    }
    if (c === "`") {
      const run = /^`+/.exec(text.slice(i))![0];
      const close = findBacktickRun(text, i + run.length, run.length);
      if (close >= 0) {
        let code = text.slice(i + run.length, close).replace(/\n/g, " ");
        if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
        push({ type: "code", text: code });
        i = close + run.length;
        continue;
      }
      buffer += run;
      i += run.length;
      continue;
    }
    if (c === "<") {
      const auto = /^<(https?:\/\/[^\s<>]+)>/i.exec(text.slice(i));
      const href = auto ? safeHref(auto[1]) : null;
      if (auto && href) {
        push({ type: "link", href, children: [{ type: "text", text: auto[1] }] });
        i += auto[0].length;
        continue;
      }
    }
    if (c === "[") {
      const link = linkAt(text, i);
      if (link) {
        const children = parseInline(link.label);
        const href = safeHref(link.url);
        if (href) push({ type: "link", href, children });
        else {
          // An unsafe target: only the text shows.
          if (buffer) out.push({ type: "text", text: buffer });
          buffer = "";
          out.push(...children);
        }
        i = link.end;
        continue;
      }
    }
    if (c === "*" || c === "_") {
      const emphasis = emphasisAt(text, i);
      if (emphasis) {
        push({ type: emphasis.strong ? "strong" : "em", children: parseInline(emphasis.inner) });
        i = emphasis.end;
        continue;
      }
      const run = c === "*" ? /^\*+/.exec(text.slice(i))![0] : /^_+/.exec(text.slice(i))![0];
      buffer += run;
      i += run.length;
      continue;
    }
    buffer += c;
    i++;
  }
  if (buffer) out.push({ type: "text", text: buffer });
  return out;
}

function findBacktickRun(text: string, from: number, length: number): number {
  for (let i = from; i < text.length;) {
    if (text[i] !== "`") {
      i++;
      continue;
    }
    const run = /^`+/.exec(text.slice(i))![0];
    if (run.length === length) return i;
    i += run.length;
  }
  return -1;
}

/** `[label](url)` at `start`: brackets balanced in the label, the url without white space, an optional "title" ignored. */
function linkAt(text: string, start: number): { label: string; url: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "[") depth++;
    else if (c === "]" && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0 || text[close + 1] !== "(") return null;
  const target = /^\(\s*<?([^\s()<>]*)>?(?:\s+"[^"\n]*")?\s*\)/.exec(text.slice(close + 1));
  if (!target) return null;
  return { label: text.slice(start + 1, close), url: target[1], end: close + 1 + target[0].length };
}

const WORD = /[\p{L}\p{N}]/u;

/** `**x**`, `__x__`, `*x*` or `_x_` at `start`: the delimiters hug the text, and `_` is not inside a word. */
function emphasisAt(text: string, start: number): { strong: boolean; inner: string; end: number } | null {
  const c = text[start];
  if (c === "_" && start > 0 && WORD.test(text[start - 1])) return null;
  for (const size of [2, 1]) {
    const delimiter = c.repeat(size);
    if (text.slice(start, start + size) !== delimiter) continue;
    const open = start + size;
    if (open >= text.length || /\s/.test(text[open]) || text[open] === c) continue;
    for (let j = open + 1; j <= text.length - size; j++) {
      if (text[j] === "\\") {
        j++;
        continue;
      }
      if (text[j] === "`") {
        // A code span inside is skipped whole.
        const run = /^`+/.exec(text.slice(j))![0];
        const close = findBacktickRun(text, j + run.length, run.length);
        if (close >= 0) j = close + run.length - 1;
        continue;
      }
      if (text.slice(j, j + size) !== delimiter) continue;
      if (text[j + size] === c || text[j - 1] === c) continue;
      if (/\s/.test(text[j - 1])) continue;
      if (c === "_" && j + size < text.length && WORD.test(text[j + size])) continue;
      return { strong: size === 2, inner: text.slice(open, j), end: j + size };
    }
  }
  return null;
}
