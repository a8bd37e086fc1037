import { render } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

describe("Markdown: rendered as elements, never as HTML", () => {
  it("renders the subset: paragraphs, strong, emphasis, code, lists, code blocks and links", () => {
    const { container } = render(
      <Markdown source={"Hello **bold** and *soft* `x<y`\n\n- one\n- [two](https://example.com/t)\n\n```\n<b>raw</b>\n```"} />,
    );
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelector("em")?.textContent).toBe("soft");
    expect(container.querySelector("p code")?.textContent).toBe("x<y");
    expect([...container.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["one", "two"]);
    const link = container.querySelector("a")!;
    expect(link.getAttribute("href")).toBe("https://example.com/t");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(container.querySelector("pre code")?.textContent).toBe("<b>raw</b>");
    expect(container.querySelector("b")).toBeNull();
  });

  it.each([
    ["<script>alert(1)</script>", "script"],
    ['<img src=x onerror="alert(1)">', "img"],
    ['<a href="javascript:alert(1)">x</a>', "a"],
    ["&lt;script&gt;alert(1)&lt;/script&gt;", "script"],
    ["<svg onload=alert(1)>", "svg"],
    ['<iframe src="https://evil.example"></iframe>', "iframe"],
  ])("%s stays text", (source, tag) => {
    const { container } = render(<Markdown source={source} />);
    expect(container.querySelector(tag)).toBeNull();
    const html = renderToStaticMarkup(<Markdown source={source} />);
    expect(html).not.toMatch(/<(script|img|svg|iframe)\b/i);
    expect(container.textContent).toBe(source.replace(/&lt;/g, "<").replace(/&gt;/g, ">"));
    const attributes = [...container.querySelectorAll("*")].flatMap((element) => [...element.attributes].map((a) => a.name));
    expect(attributes.filter((name) => /^on/i.test(name))).toEqual([]);
  });

  it.each([
    "[x](javascript:alert`1`)",
    "[x](JAVASCRIPT:alert)",
    "[x](&#106;avascript:alert)",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox)",
    "<javascript:alert(1)>",
  ])("%s makes no link", (source) => {
    const html = renderToStaticMarkup(<Markdown source={source} />);
    expect(html).not.toContain("<a");
    expect(html).not.toMatch(/href="(javascript|data|vbscript):/i);
  });

  it("a relative link opens in place, with the same rel", () => {
    const { container } = render(<Markdown source="[turn 3](/runs/r?turn=3)" />);
    const link = container.querySelector("a")!;
    expect(link.getAttribute("href")).toBe("/runs/r?turn=3");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(link.hasAttribute("target")).toBe(false);
  });
});
