import { Fragment, type ReactNode } from "react";
import { LINK_REL, parseMarkdown, type MdBlock, type MdInline } from "@/lib/markdown/markdown";

/**
 * Markdown of the safe subset (lib/markdown/markdown.ts) as React elements: text stays text (React
 * escapes it), links carry only targets the parser allowed, and open with rel="noopener noreferrer
 * nofollow". No HTML string is ever made, so no comment can inject markup.
 */
export function Markdown({ source, className }: { source: string; className?: string }) {
  return <div className={className}>{parseMarkdown(source).map(renderBlock)}</div>;
}

function renderBlock(block: MdBlock, index: number): ReactNode {
  switch (block.type) {
    case "paragraph":
      return <p key={index}>{block.children.map(renderInline)}</p>;
    case "code_block":
      return (
        <pre key={index} data-lang={block.lang ?? undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case "list": {
      const items = block.items.map((item, i) => <li key={i}>{item.map(renderInline)}</li>);
      return block.ordered ? (
        <ol key={index} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={index}>{items}</ul>
      );
    }
  }
}

function renderInline(node: MdInline, index: number): ReactNode {
  switch (node.type) {
    case "text":
      return <Fragment key={index}>{node.text}</Fragment>;
    case "break":
      return <br key={index} />;
    case "code":
      return <code key={index}>{node.text}</code>;
    case "strong":
      return <strong key={index}>{node.children.map(renderInline)}</strong>;
    case "em":
      return <em key={index}>{node.children.map(renderInline)}</em>;
    case "link": {
      const external = /^(https?:)?\/\//i.test(node.href);
      return (
        <a key={index} href={node.href} rel={LINK_REL} {...(external ? { target: "_blank" } : {})}>
          {node.children.map(renderInline)}
        </a>
      );
    }
  }
}
