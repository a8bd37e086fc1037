import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "@/lib/markdown/markdown";
import { RenderedMarkdown } from "./markdown";

/** A comment as the page shows it: its rendered HTML (lib/markdown/markdown.ts) placed by RenderedMarkdown. */
const shown = (source: string) => render(<RenderedMarkdown html={renderMarkdown(source)} />).container;

describe("RenderedMarkdown: a comment's rendered HTML in the page", () => {
  it("shows paragraphs, strong, emphasis, code, lists, code blocks and links", () => {
    const container = shown("Hello **bold** and *soft* `x<y`\n\n- one\n- [two](https://example.com/t)\n\n```\n<b>raw</b>\n```");
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelector("em")?.textContent).toBe("soft");
    expect(container.querySelector("p code")?.textContent).toBe("x<y");
    expect([...container.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["one", "two"]);
    const link = container.querySelector("a")!;
    expect(link.getAttribute("href")).toBe("https://example.com/t");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(container.querySelector("pre code")?.textContent).toBe("<b>raw</b>\n");
    expect(container.querySelector("b")).toBeNull();
  });

  it.each([
    ["<script>alert(1)</script>", "script"],
    ['<img src=x onerror="alert(1)">', "img"],
    ['<a href="javascript:alert(1)">x</a>', "a"],
    ["&lt;script&gt;alert(1)&lt;/script&gt;", "script"],
    ["<svg onload=alert(1)>", "svg"],
    ['<iframe src="https://evil.example"></iframe>', "iframe"],
    ["![x](https://evil.example/pixel.png)", "img"],
  ])("%s makes no %s element", (source, tag) => {
    const container = shown(source);
    expect(container.querySelector(tag)).toBeNull();
    expect(container.querySelectorAll("script, img, svg, iframe, object, embed, style")).toHaveLength(0);
    const attributes = [...container.querySelectorAll("*")].flatMap((element) => [...element.attributes].map((a) => a.name));
    expect(attributes.filter((name) => /^on/i.test(name))).toEqual([]);
  });

  it("raw HTML shows as the text typed", () => {
    const source = '<img src=x onerror="alert(1)">';
    expect(shown(source).textContent).toBe(`${source}\n`);
  });

  it.each([
    "[x](javascript:alert`1`)",
    "[x](JAVASCRIPT:alert)",
    "[x](&#106;avascript:alert)",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox)",
    "<javascript:alert(1)>",
  ])("%s makes no link", (source) => {
    expect(shown(source).querySelector("a")).toBeNull();
  });

  it("a relative link opens in place, with the same rel", () => {
    const link = shown("[turn 3](/runs/r?turn=3)").querySelector("a")!;
    expect(link.getAttribute("href")).toBe("/runs/r?turn=3");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(link.hasAttribute("target")).toBe(false);
  });
});
