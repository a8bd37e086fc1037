/**
 * A comment's rendered Markdown: the sanitized HTML that lib/markdown/markdown.ts made from it (when
 * the comment was written, or for a preview), placed as it is. That renderer is the one place that
 * decides what markup a comment can make (docs/comments.md#safety): text and attribute values
 * escaped, no raw HTML, no images, links only to http(s) or relative targets. Never give this HTML
 * from anywhere else.
 */
export function RenderedMarkdown({ html, className }: { html: string; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
