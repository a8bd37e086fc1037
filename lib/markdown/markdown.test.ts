import { describe, expect, it } from "vitest";
import { renderMarkdown, safeHref } from "./markdown";

/**
 * Expected HTML written by hand from the CommonMark spec (0.31; its examples' output form: `<br />`,
 * a newline after each block), with this renderer's choices: a single line break is a `<br />`,
 * no raw HTML, no images, links carry rel (and target for other sites), and only safe targets link.
 */
const REL = 'rel="noopener noreferrer nofollow"';

describe("renderMarkdown: CommonMark blocks", () => {
  it.each<[string, string, string]>([
    ["one paragraph", "hello", "<p>hello</p>\n"],
    ["paragraphs split by a blank line", "one\n\ntwo", "<p>one</p>\n<p>two</p>\n"],
    ["a single line break stays one", "one\ntwo", "<p>one<br />\ntwo</p>\n"],
    ["CRLF line ends", "one\r\n\r\ntwo", "<p>one</p>\n<p>two</p>\n"],
    [
      "a fenced code block, verbatim and escaped",
      "```ts\nconst a = <b>*x*</b>;\n```",
      '<pre><code class="language-ts">const a = &lt;b&gt;*x*&lt;/b&gt;;\n</code></pre>\n',
    ],
    ["a tilde fence", "~~~\n**not strong**\n~~~", "<pre><code>**not strong**\n</code></pre>\n"],
    ["an unclosed fence runs to the end", "```\na\nb\n", "<pre><code>a\nb\n</code></pre>\n"],
    [
      "a fence's info string is escaped",
      '```"><script>\nx\n```',
      '<pre><code class="language-&quot;&gt;&lt;script&gt;">x\n</code></pre>\n',
    ],
    ["an indented code block", "    <b>x</b>", "<pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n"],
    ["a bullet list", "- one\n- **two**", "<ul>\n<li>one</li>\n<li><strong>two</strong></li>\n</ul>\n"],
    ["an ordered list keeps its start", "3. c\n4. d", '<ol start="3">\n<li>c</li>\n<li>d</li>\n</ol>\n'],
    ["a lazy continuation line stays in the item", "- one\n  more", "<ul>\n<li>one<br />\nmore</li>\n</ul>\n"],
    ["a nested list", "- a\n  - b", "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>\n"],
    ["a list after a paragraph", "before\n* a", "<p>before</p>\n<ul>\n<li>a</li>\n</ul>\n"],
    ["a block quote", "> quoted\n> *text*", "<blockquote>\n<p>quoted<br />\n<em>text</em></p>\n</blockquote>\n"],
    ["a heading", "## Fees", "<h2>Fees</h2>\n"],
    ["a setext heading", "Fees\n===", "<h1>Fees</h1>\n"],
    ["a thematic break", "a\n\n***\n\nb", "<p>a</p>\n<hr />\n<p>b</p>\n"],
    ["nothing", "  \n\n", ""],
  ])("%s", (_, source, expected) => {
    expect(renderMarkdown(source)).toBe(expected);
  });
});

describe("renderMarkdown: CommonMark inlines", () => {
  it.each<[string, string, string]>([
    ["emphasis", "*a* and _b_", "<p><em>a</em> and <em>b</em></p>\n"],
    ["strong", "**a** __b__", "<p><strong>a</strong> <strong>b</strong></p>\n"],
    ["strong holding emphasis", "**a *b* c**", "<p><strong>a <em>b</em> c</strong></p>\n"],
    ["intraword underscores are text", "snake_case_name", "<p>snake_case_name</p>\n"],
    ["intraword stars emphasise", "un*frigging*believable", "<p>un<em>frigging</em>believable</p>\n"],
    ["a lone star is text", "2 * 3 = 6", "<p>2 * 3 = 6</p>\n"],
    ["inline code is literal and escaped", "`**x** <b>`", "<p><code>**x** &lt;b&gt;</code></p>\n"],
    ["double backticks hold one", "``a ` b``", "<p><code>a ` b</code></p>\n"],
    ["an unclosed backtick is text", "a ` b", "<p>a ` b</p>\n"],
    ["backslash escapes", "\\*not em\\*", "<p>*not em*</p>\n"],
    [
      "a link",
      "[docs](https://example.com/a?b=1&c=2)",
      `<p><a href="https://example.com/a?b=1&amp;c=2" ${REL} target="_blank">docs</a></p>\n`,
    ],
    ["a relative link opens in place", "[run](/runs/r1?turn=3)", `<p><a href="/runs/r1?turn=3" ${REL}>run</a></p>\n`],
    ["a fragment link", "[*x*](#a)", `<p><a href="#a" ${REL}><em>x</em></a></p>\n`],
    ["a protocol-relative link", "[x](//e.com/p)", `<p><a href="//e.com/p" ${REL} target="_blank">x</a></p>\n`],
    ["a link with a title", '[x](https://e.com "T")', `<p><a href="https://e.com" title="T" ${REL} target="_blank">x</a></p>\n`],
    ["a target with a space is percent-encoded", "[x](</a b>)", `<p><a href="/a%20b" ${REL}>x</a></p>\n`],
    ["a reference link", "[x][1]\n\n[1]: https://e.com", `<p><a href="https://e.com" ${REL} target="_blank">x</a></p>\n`],
    ["an autolink", "<https://e.com/x>", `<p><a href="https://e.com/x" ${REL} target="_blank">https://e.com/x</a></p>\n`],
    [
      "entities become their characters (escaped again)",
      "&lt;b&gt; &amp; &#60;i&#x3e; &quot; &copy;",
      "<p>&lt;b&gt; &amp; &lt;i&gt; &quot; ©</p>\n",
    ],
    ["an unknown entity is text; a surrogate is U+FFFD", "&bogus; &#xD800;", "<p>&amp;bogus; \ufffd</p>\n"],
    ["a NUL becomes U+FFFD", "a\u0000b", "<p>a\ufffdb</p>\n"],
    ["a bare URL is not linked", "see https://e.com", "<p>see https://e.com</p>\n"],
  ])("%s", (_, source, expected) => {
    expect(renderMarkdown(source)).toBe(expected);
  });
});

describe("renderMarkdown: what a comment cannot make", () => {
  it.each<[string, string, string]>([
    ["a javascript: link stays its text", "[click](javascript:alert(1))", "<p>[click](javascript:alert(1))</p>\n"],
    ["JAVASCRIPT: in capitals", "[x](JaVaScRiPt:alert)", "<p>[x](JaVaScRiPt:alert)</p>\n"],
    ["a javascript: link hidden by a named entity", "[x](javascript&colon;alert)", "<p>[x](javascript:alert)</p>\n"],
    ["a javascript: link written with a numeric entity", "[x](&#106;avascript:alert)", "<p>[x](javascript:alert)</p>\n"],
    ["a tab inside the scheme", "[x](<java\tscript:alert(1)>)", "<p>[x](&lt;java\tscript:alert(1)&gt;)</p>\n"],
    ["a data: link", "[x](data:text/html;base64,PHNjcmlwdD4=)", "<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>\n"],
    ["a vbscript: link", "[x](vbscript:msgbox)", "<p>[x](vbscript:msgbox)</p>\n"],
    ["a mailto: link", "[x](mailto:a@b.c)", "<p>[x](mailto:a@b.c)</p>\n"],
    ["an autolink with another scheme is text", "<javascript:alert(1)>", "<p>&lt;javascript:alert(1)&gt;</p>\n"],
    ["an e-mail autolink is text", "<a@b.c>", "<p>&lt;a@b.c&gt;</p>\n"],
    [
      "a reference to a javascript: target is text",
      "[x][1]\n\n[1]: javascript:alert(1)",
      "<p>[x][1]</p>\n<p>[1]: javascript:alert(1)</p>\n",
    ],
    ["raw script is text", "<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"],
    [
      "an HTML block is text",
      '<div onclick="x()">\nhi\n</div>',
      "<p>&lt;div onclick=&quot;x()&quot;&gt;<br />\nhi<br />\n&lt;/div&gt;</p>\n",
    ],
    ["an img with onerror is text", '<img src=x onerror="alert(1)">', "<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>\n"],
    [
      "an image is no image: a ! and a link",
      "![x](https://e.com/p.png)",
      `<p>!<a href="https://e.com/p.png" ${REL} target="_blank">x</a></p>\n`,
    ],
    ["an entity-encoded tag stays text", "&lt;script&gt;", "<p>&lt;script&gt;</p>\n"],
    [
      "a title cannot break out of its attribute",
      '[x](/a "\\" onmouseover=\\"y")',
      `<p><a href="/a" title="&quot; onmouseover=&quot;y" ${REL}>x</a></p>\n`,
    ],
    ["a backslash in a target is percent-encoded", "[x](\\\\evil.com)", `<p><a href="%5Cevil.com" ${REL}>x</a></p>\n`],
  ])("%s", (_, source, expected) => {
    expect(renderMarkdown(source)).toBe(expected);
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
    ["java%09script:alert(1)", null],
    ["data:text/html,x", null],
    ["mailto:a@b.c", null],
    ["\\\\evil.com", null],
    ["", null],
    [`https://e.com/${"a".repeat(2048)}`, null],
  ])("safeHref(%j) is %j", (href, expected) => {
    expect(safeHref(href)).toBe(expected);
  });
});

/** The tags and attributes a comment's HTML may hold, and nothing else. */
const TAGS = new Set([
  "p",
  "br",
  "strong",
  "em",
  "code",
  "pre",
  "ul",
  "ol",
  "li",
  "a",
  "blockquote",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
]);
const ATTRIBUTES = new Set(["href", "title", "rel", "target", "start", "class"]);

describe("renderMarkdown: the output holds only the allowed markup", () => {
  // The usual payloads and the pathological shapes, alone and mixed, through the whole renderer.
  const payloads = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg/onload=alert(1)>",
    "<iframe src=//evil></iframe>",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    '[x](https://e.com "a" onclick="b")',
    "![x](javascript:alert(1))",
    "<!-- x --><style>*{}</style>",
    "```\n</code></pre><script>x</script>\n```",
    "`</code><script>`",
    "*[_a ".repeat(200),
    "[".repeat(300) + "x" + "](/y)".repeat(300),
    "> ".repeat(200) + "deep",
    "- ".repeat(200) + "deep",
  ];
  it.each(payloads.map((p) => [p.slice(0, 40), p]))("%j", (_, source) => {
    const html = renderMarkdown(source);
    for (const match of html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)) {
      expect(TAGS).toContain(match[1].toLowerCase());
      for (const attribute of match[2].matchAll(/\s([^\s=/]+)=("[^"]*")?/g)) expect(ATTRIBUTES).toContain(attribute[1].toLowerCase());
      expect(match[2]).not.toMatch(/javascript:|data:|vbscript:/i);
    }
  });
});
