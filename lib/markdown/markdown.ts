import MarkdownIt, { type MarkdownIt as Renderer } from "markdown-it";

/**
 * Comment Markdown → sanitized HTML (docs/comments.md#safety), rendered once when a comment is
 * written and stored with it, so reads never parse Markdown. The parser is markdown-it's CommonMark
 * preset, whose running time grows linearly with the text (scripts/bench/markdown.ts measures it on
 * pathological input), configured so that its output can hold nothing a comment's author chose
 * beyond text and safe link targets:
 * - raw HTML is off: `<script>`, `<img …>` and every other tag are escaped text;
 * - images are off (`![x](u)` is a "!" and a link): a comment loads no content;
 * - a link keeps its target only when `safeHref` accepts it (http(s), protocol-relative or
 *   relative); otherwise the link syntax stays text. Every link gets rel="noopener noreferrer
 *   nofollow", and links to other sites open in a new tab;
 * - every text and attribute value is escaped by markdown-it's renderer; the only attributes made
 *   are a link's `href`, `title`, `rel` and `target`, an ordered list's `start` and a code block's
 *   `class="language-…"`.
 * A single line break stays one (`<br>`), as people expect in comments. Pure: no React, no DOM.
 */

/** The `rel` every rendered link carries: no opener access, no referrer, no endorsement. */
export const LINK_REL = "noopener noreferrer nofollow";

/**
 * Whether a link target may be rendered: http(s) (or protocol-relative) URLs and relative ones
 * (`/runs`, `./x`, `#turn`, `?q=`, `notes.md`) only. Anything with another scheme (`javascript:`,
 * `data:`, `vbscript:`, `file:`, `mailto:` …), white space, control characters or a backslash is
 * refused. markdown-it calls it with the target after its entities and escapes are decoded and it is
 * percent-encoded, so `&#106;avascript:` or `java&#9;script:` are seen as the browser would see them.
 */
export function safeHref(href: string): string | null {
  if (href === "" || href.length > 2048) return null;
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/.test(href)) return null;
  const scheme = /^([^/?#]*?):/.exec(href);
  if (!scheme) return href;
  return /^https?$/i.test(scheme[1]) ? href : null;
}

const EXTERNAL = /^(https?:)?\/\//i;

function makeRenderer(): Renderer {
  // "commonmark": the spec's rules only (no tables, strikethrough, linkify or typographer); its
  // maxNesting of 20 bounds how deep block quotes and lists go.
  const md = new MarkdownIt("commonmark", { html: false, breaks: true, linkify: false, typographer: false });
  md.disable(["image", "html_block", "html_inline"]);
  md.validateLink = (url) => safeHref(url) !== null;
  md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
    const token = tokens[index];
    token.attrSet("rel", LINK_REL);
    if (EXTERNAL.test(String(token.attrGet("href") ?? ""))) token.attrSet("target", "_blank");
    return self.renderToken(tokens, index, options);
  };
  return md;
}

let renderer: Renderer | null = null;

/** A comment's Markdown as sanitized HTML (a fragment of block elements; empty for white space only). */
export function renderMarkdown(source: string): string {
  renderer ??= makeRenderer();
  return renderer.render(source);
}
