import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { renderMarkdown } from "../../web/components/markdown.tsx";
import { canHighlight, highlightCode } from "../../web/lib/code-highlight.ts";
import { parseInline, parseMarkdown, safeHref } from "../../web/lib/markdown.ts";
import { vnodeToHtml } from "../support/web-vnode-html.ts";

const html = (source: string) => vnodeToHtml(renderMarkdown(source));
/** The same HTML with highlight spans removed (to compare structure, not colours). */
const plain = (source: string) => html(source).replace(/<span class="[^"]*">|<\/span>/g, "");
const LINK = 'target="_blank" rel="noopener noreferrer nofollow"';
const CORPUS = join(import.meta.dir, "..", "fixtures", "markdown");

describe("safe Markdown", () => {
  test("renders the basics", () => {
    expect(html("# Title\n\nSome **bold**, *em*, ~~gone~~ and `code`.")).toBe(
      "<h1>Title</h1><p>Some <strong>bold</strong>, <em>em</em>, <del>gone</del> and <code>code</code>.</p>",
    );
    expect(html("- a\n- b\n\n3. c\n4. d")).toBe('<ul><li>a</li><li>b</li></ul><ol start="3"><li>c</li><li>d</li></ol>');
    expect(plain("```ts\nconst a = 1 < 2;\n```")).toBe('<pre class="code-block" data-lang="ts"><code class="language-ts">const a = 1 &lt; 2;</code></pre>');
    expect(html("> quoted\n\n---")).toBe("<blockquote><p>quoted</p></blockquote><hr></hr>");
    expect(html("[docs](https://example.com/a?b=1)")).toBe(`<p><a href="https://example.com/a?b=1" ${LINK}>docs</a></p>`);
    expect(html("line one  \nline two")).toBe("<p>line one<br></br>line two</p>");
  });

  test("a paragraph's final whitespace is dropped, as CommonMark says (a streamed answer often ends in a space)", () => {
    expect(html("word0 word1 ")).toBe("<p>word0 word1</p>");
    expect(html("one **two** \t")).toBe("<p>one <strong>two</strong></p>");
    expect(html("- item \n- other")).toBe("<ul><li>item</li><li>other</li></ul>");
  });

  test("GFM tables are tables, with alignment and inline Markdown in cells", () => {
    expect(html("| Name | Size |\n|:-----|-----:|\n| `a.ts` | **12** |\n| b \\| c | 3 |")).toBe(
      '<div class="table-scroll"><table><thead><tr><th style="text-align: left">Name</th><th style="text-align: right">Size</th></tr></thead>' +
        '<tbody><tr><td style="text-align: left"><code>a.ts</code></td><td style="text-align: right"><strong>12</strong></td></tr>' +
        '<tr><td style="text-align: left">b | c</td><td style="text-align: right">3</td></tr></tbody></table></div>',
    );
  });

  test("nested lists nest; a loose item keeps its paragraphs; headings and code live inside items", () => {
    expect(html("1. one\n   - a\n     - deep\n2. two")).toBe("<ol><li>one<ul><li>a<ul><li>deep</li></ul></li></ul></li><li>two</li></ol>");
    expect(plain("- first\n\n  ### Inside\n\n  ```sh\n  ls\n  ```\n- second")).toBe(
      '<ul><li><p>first</p><h3>Inside</h3><pre class="code-block" data-lang="sh"><code class="language-sh">ls</code></pre></li><li><p>second</p></li></ul>',
    );
  });

  test("task lists carry a disabled checkbox, tight or loose", () => {
    expect(html("- [x] done\n- [ ] todo")).toBe(
      '<ul><li class="task"><input type="checkbox" checked="true" disabled="true"></input>done</li><li class="task"><input type="checkbox" disabled="true"></input>todo</li></ul>',
    );
    expect(html("- [x] done\n\n- [ ] todo")).toContain('<li class="task"><input type="checkbox" checked="true" disabled="true"></input><p>done</p></li>');
  });

  test("autolinks: bare URLs, www., <angle> form; trailing punctuation stays text", () => {
    expect(html("see https://example.com/x. and www.example.org, or <https://a.example/b>")).toBe(
      `<p>see <a href="https://example.com/x" ${LINK}>https://example.com/x</a>. and <a href="http://www.example.org/" ${LINK}>www.example.org</a>, or <a href="https://a.example/b" ${LINK}>https://a.example/b</a></p>`,
    );
    expect(html("mail me@example.com")).toBe("<p>mail me@example.com</p>"); // mailto: is not http(s)
  });

  test("an image becomes a link to it (nothing loads); reference links resolve", () => {
    expect(html("![chart](https://example.com/c.png)")).toBe(`<p><a href="https://example.com/c.png" ${LINK}>chart</a></p>`);
    expect(html("[the spec][s]\n\n[s]: https://spec.commonmark.org/")).toBe(`<p><a href="https://spec.commonmark.org/" ${LINK}>the spec</a></p>`);
  });

  test("common entities decode; escapes are literal", () => {
    expect(html("AT&amp;T &lt;tag&gt; \\*not em\\*")).toBe("<p>AT&amp;T &lt;tag&gt; *not em*</p>");
  });

  test("an unclosed fence (still streaming) is code to the end", () => {
    expect(parseMarkdown("text\n```js\nlet x")).toEqual([
      { t: "para", c: [{ t: "text", v: "text" }] },
      { t: "code", lang: "js", v: "let x" },
    ]);
  });

  test("snake_case is not emphasis; a lone star is text", () => {
    expect(parseInline("a_b_c and 2 * 3")).toEqual([{ t: "text", v: "a_b_c and 2 * 3" }]);
  });

  const attacks = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[x](data:text/html,<script>alert(1)</script>)",
    "[x](//evil.example/steal)",
    '**<iframe src="https://evil.example">**',
    "```\n</code></pre><script>alert(1)</script>\n```",
    "```html\n<script>alert(1)</script><img src=x onerror=alert(1)>\n```",
    "`<svg onload=alert(1)>`",
    "# <a href=javascript:alert(1)>h</a>",
    "- <style>*{}</style>\n- [a](vbscript:msgbox)",
    "> <img src=x onerror=alert(1)>",
    "| a | b |\n|---|---|\n| <script>alert(1)</script> | [x](javascript:alert(1)) |",
    "![x](javascript:alert(1))",
    '[x](https://ok.example "t\\" onmouseover=alert(1)")',
    "<details><summary>x</summary>\n\n<img src=x onerror=alert(1)>\n</details>",
    "- [ ] <img src=x onerror=alert(1)>",
  ];

  test.each(attacks)("never emits markup from agent text: %s", (attack) => {
    const out = html(attack);
    expect(out).not.toMatch(/<(script|img|iframe|svg|style|details|summary|a href="javascript)/i);
    expect(out).not.toMatch(/<[^>]*\son\w+=/i); // no event-handler attributes on any tag
    expect(out).not.toMatch(/href="(?!https?:)/i); // every href is http(s)
    expect(out).not.toContain("javascript:alert(1)\"");
  });

  test("the raw HTML stays visible as text", () => {
    expect(html("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(html("a <b>b</b> c")).toBe("<p>a &lt;b&gt;b&lt;/b&gt; c</p>");
    expect(html("[click](javascript:alert(1))")).toBe("<p>click</p>");
  });

  test("safeHref keeps only absolute http(s)", () => {
    expect(safeHref("https://a.example/x")).toBe("https://a.example/x");
    expect(safeHref(" http://a.example ")).toBe("http://a.example/");
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "/relative", "//host/x", "mailto:a@b", "https://"]) expect(safeHref(bad)).toBeNull();
  });
});

describe("code highlighting", () => {
  test("registered languages and their aliases highlight into class-named spans", () => {
    expect(html("```ts\nconst a = 1;\n```")).toBe(
      '<pre class="code-block" data-lang="ts"><code class="language-ts"><span class="hljs-keyword">const</span> a = <span class="hljs-number">1</span>;</code></pre>',
    );
    for (const language of ["typescript", "js", "json", "bash", "sh", "python", "py", "html", "xml", "diff", "yaml", "go", "rust"]) expect(canHighlight(language)).toBe(true);
  });

  test("an unknown language, no language, or a huge block stays plain text", () => {
    expect(canHighlight("brainfuck")).toBe(false);
    expect(highlightCode("brainfuck", "+++")).toBeNull();
    expect(highlightCode("", "x")).toBeNull();
    expect(highlightCode("js", "x;".repeat(20_000))).toBeNull();
    expect(html("```\nplain < text\n```")).toBe('<pre class="code-block"><code>plain &lt; text</code></pre>');
    expect(html("```BrainFuck\n+\n```")).toBe('<pre class="code-block" data-lang="brainfuck"><code class="language-brainfuck">+</code></pre>');
  });

  test("highlighted code keeps every character of the source", () => {
    const source = 'import x from "y";\n// <b>not html</b>\nconst t = `${x}`;';
    const text = (nodes: ReturnType<typeof highlightCode>): string => (nodes ?? []).map((n) => (typeof n === "string" ? n : text(n.c))).join("");
    expect(text(highlightCode("ts", source))).toBe(source);
  });
});

describe("the real-answer corpus (the same files the Chromium e2e renders)", () => {
  const corpus = Object.fromEntries(readdirSync(CORPUS).map((name) => [name, readFileSync(join(CORPUS, name), "utf8")]));

  test("a comparison table is a table with every row; the plan after it is a nested list", () => {
    const out = plain(corpus["comparison-table.md"]!);
    expect(out.match(/<tr>/g)).toHaveLength(4);
    expect(out).toContain('<th style="text-align: center">Survives restart</th>');
    expect(out).toMatch(/<ol><li>Keep <code>od\.db<\/code>.*<li>Replace <code>detectCache\.json<\/code> with an in-memory map:<ul><li>it is rebuilt/);
  });

  test("a nested plan keeps three list levels, task boxes, a heading and SQL inside an item", () => {
    const out = plain(corpus["nested-plan.md"]!);
    expect(out).toMatch(/<li>backfill:<ul><li>rows older than 90 days/);
    expect(out.match(/<input type="checkbox"/g)).toHaveLength(5);
    expect(out).toMatch(/<li><p><strong>Web<\/strong><\/p><h3>Sidebar<\/h3>/);
    expect(out).toContain('<code class="language-sql">SELECT id, title FROM conversations');
    expect(out).not.toContain("[x]");
  });

  test("a code review's blocks keep their languages and highlight", () => {
    const out = html(corpus["code-review.md"]!);
    for (const language of ["diff", "ts", "bash", "json", "python"]) expect(out).toMatch(new RegExp(`<code class="language-${language}">((?!</code>).)*<span class="hljs-`, "s"));
    expect(out).toContain('<span class="hljs-deletion">-  const port = parseInt(value, 10);');
    expect(out).toContain(`<a href="https://tc39.es/ecma262/#sec-parseint-string-radix" ${LINK}>`);
  });

  test("a hostile answer shows its markup as text and links only to http(s)", () => {
    const out = html(corpus["hostile.md"]!);
    expect(out).not.toMatch(/<(script|img|iframe|b)[\s>]/i);
    expect(out).not.toMatch(/<[^>]*\son\w+=/i);
    expect(out.match(/href="/g)).toHaveLength(1);
    expect(out).toContain("&lt;script&gt;window.__pwned = &quot;script&quot;&lt;/script&gt;");
  });
});
