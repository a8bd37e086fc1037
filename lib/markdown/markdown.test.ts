import { describe, expect, it } from "vitest";
import { decodeEntities, parseInline, parseMarkdown, safeHref, type MdBlock, type MdInline } from "./markdown";

const t = (text: string): MdInline => ({ type: "text", text });
const p = (...children: MdInline[]): MdBlock => ({ type: "paragraph", children });

describe("parseMarkdown: blocks", () => {
  it.each<[string, string, MdBlock[]]>([
    ["one paragraph", "hello", [p(t("hello"))]],
    ["paragraphs split by a blank line", "one\n\ntwo", [p(t("one")), p(t("two"))]],
    ["a single line break stays one", "one\ntwo", [p(t("one"), { type: "break" }, t("two"))]],
    ["CRLF line ends", "one\r\n\r\ntwo", [p(t("one")), p(t("two"))]],
    [
      "a fenced code block, kept verbatim",
      "```ts\nconst a = <b>*x*</b>;\n```",
      [{ type: "code_block", text: "const a = <b>*x*</b>;", lang: "ts" }],
    ],
    ["a tilde fence", "~~~\n**not strong**\n~~~", [{ type: "code_block", text: "**not strong**", lang: null }]],
    ["an unclosed fence runs to the end", "```\na\nb", [{ type: "code_block", text: "a\nb", lang: null }]],
    [
      "a bullet list",
      "- one\n- **two**",
      [{ type: "list", ordered: false, start: 1, items: [[t("one")], [{ type: "strong", children: [t("two")] }]] }],
    ],
    ["an ordered list keeps its start", "3. c\n4. d", [{ type: "list", ordered: true, start: 3, items: [[t("c")], [t("d")]] }]],
    [
      "an indented line continues the item",
      "- one\n  more",
      [{ type: "list", ordered: false, start: 1, items: [[t("one"), { type: "break" }, t("more")]] }],
    ],
    [
      "a list between paragraphs",
      "before\n* a\nafter",
      [p(t("before")), { type: "list", ordered: false, start: 1, items: [[t("a")]] }, p(t("after"))],
    ],
    ["nothing", "  \n\n", []],
  ])("%s", (_, source, expected) => {
    expect(parseMarkdown(source)).toEqual(expected);
  });
});

describe("parseInline", () => {
  it.each<[string, string, MdInline[]]>([
    ["emphasis", "*a* and _b_", [{ type: "em", children: [t("a")] }, t(" and "), { type: "em", children: [t("b")] }]],
    ["strong", "**a** __b__", [{ type: "strong", children: [t("a")] }, t(" "), { type: "strong", children: [t("b")] }]],
    ["strong holding emphasis", "**a *b* c**", [{ type: "strong", children: [t("a "), { type: "em", children: [t("b")] }, t(" c")] }]],
    ["intraword underscores are text", "snake_case_name", [t("snake_case_name")]],
    ["a lone star is text", "2 * 3 = 6", [t("2 * 3 = 6")]],
    ["inline code is literal", "`**x** <b>`", [{ type: "code", text: "**x** <b>" }]],
    ["double backticks hold one", "``a ` b``", [{ type: "code", text: "a ` b" }]],
    ["an unclosed backtick is text", "a ` b", [t("a ` b")]],
    ["backslash escapes", "\\*not em\\*", [t("*not em*")]],
    ["a link", "[docs](https://example.com/a?b=1)", [{ type: "link", href: "https://example.com/a?b=1", children: [t("docs")] }]],
    ["a relative link", "[run](/runs/r1?turn=3)", [{ type: "link", href: "/runs/r1?turn=3", children: [t("run")] }]],
    ["a link with a title", '[x](https://e.com "T")', [{ type: "link", href: "https://e.com", children: [t("x")] }]],
    ["a link with emphasis inside", "[*x*](#a)", [{ type: "link", href: "#a", children: [{ type: "em", children: [t("x")] }] }]],
    ["an autolink", "<https://e.com/x>", [{ type: "link", href: "https://e.com/x", children: [t("https://e.com/x")] }]],
    ["entities become their characters (as text)", "&lt;b&gt; &amp; &#60;i&#x3e; &quot;", [t('<b> & <i> "')]],
    ["an unknown entity is text", "&bogus; &#xD800;", [t("&bogus; \ufffd")]],
  ])("%s", (_, source, expected) => {
    expect(parseInline(source)).toEqual(expected);
  });
});

describe("safety: what a comment cannot make", () => {
  it.each<[string, string, MdInline[]]>([
    ["a javascript: link with parentheses is no link at all", "[click](javascript:alert(1))", [t("[click](javascript:alert(1))")]],
    ["a javascript: link without parentheses", "[click](javascript:alert`1`)", [t("click")]],
    ["JAVASCRIPT: in capitals", "[x](JaVaScRiPt:alert)", [t("x")]],
    [
      "a javascript: link hidden by an entity",
      "[x](javascript&colon;alert)",
      [{ type: "link", href: "javascript&colon;alert", children: [t("x")] }],
    ],
    ["a javascript: link written with numeric entities", "[x](&#106;avascript:alert)", [t("x")]],
    ["a data: link", "[x](data:text/html;base64,PHNjcmlwdD4=)", [t("x")]],
    ["a vbscript: link", "[x](vbscript:msgbox)", [t("x")]],
    ["an autolink with another scheme is text", "<javascript:alert(1)>", [t("<javascript:alert(1)>")]],
    ["raw script is text", "<script>alert(1)</script>", [t("<script>alert(1)</script>")]],
    ["an img with onerror is text", '<img src=x onerror="alert(1)">', [t('<img src=x onerror="alert(1)">')]],
    ["an entity-encoded tag stays text", "&lt;script&gt;", [t("<script>")]],
  ])("%s", (_, source, expected) => {
    expect(parseInline(source)).toEqual(expected);
  });

  it.each([
    ["https://e.com", "https://e.com"],
    ["HTTP://e.com", "HTTP://e.com"],
    ["//e.com/x", "//e.com/x"],
    ["/runs", "/runs"],
    ["./a:b", "./a:b"],
    ["#turn-3", "#turn-3"],
    ["?q=a:b", "?q=a:b"],
    ["javascript:alert(1)", null],
    [" javascript:alert(1)", null],
    ["java\tscript:alert(1)", null],
    ["java\nscript:alert(1)", null],
    ["&#x6A;avascript:alert(1)", null],
    ["data:text/html,x", null],
    ["mailto:a@b.c", null],
    ["\\\\evil.com", null],
    ["", null],
  ])("safeHref(%j) is %j", (href, expected) => {
    expect(safeHref(href)).toBe(expected);
  });

  it("decodes only the entities it knows", () => {
    expect(decodeEntities("&amp;&lt;&gt;&quot;&#39;&apos;&#65;&#x42;&copy;")).toBe("&<>\"''AB&copy;");
  });
});
