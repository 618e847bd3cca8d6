import { describe, expect, test } from "bun:test";
import { renderMarkdown } from "../../web/components/markdown.tsx";
import { parseInline, parseMarkdown, safeHref } from "../../web/lib/markdown.ts";
import { vnodeToHtml } from "../support/web-vnode-html.ts";

const html = (source: string) => vnodeToHtml(renderMarkdown(source));

describe("safe Markdown", () => {
  test("renders the supported subset", () => {
    expect(html("# Title\n\nSome **bold**, *em*, ~~gone~~ and `code`.")).toBe(
      "<h1>Title</h1><p>Some <strong>bold</strong>, <em>em</em>, <del>gone</del> and <code>code</code>.</p>",
    );
    expect(html("- a\n- b\n\n3. c\n4. d")).toBe('<ul><li>a</li><li>b</li></ul><ol start="3"><li>c</li><li>d</li></ol>');
    expect(html("```ts\nconst a = 1 < 2;\n```")).toBe('<pre class="code-block" data-lang="ts"><code>const a = 1 &lt; 2;</code></pre>');
    expect(html("> quoted\n\n---")).toBe("<blockquote><p>quoted</p></blockquote><hr></hr>");
    expect(html("[docs](https://example.com/a?b=1)")).toBe(
      '<p><a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer nofollow">docs</a></p>',
    );
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
    "`<svg onload=alert(1)>`",
    "# <a href=javascript:alert(1)>h</a>",
    "- <style>*{}</style>\n- [a](vbscript:msgbox)",
    "> <img src=x onerror=alert(1)>",
  ];

  test.each(attacks)("never emits markup from agent text: %s", (attack) => {
    const out = html(attack);
    expect(out).not.toMatch(/<(script|img|iframe|svg|style|a href="javascript)/i);
    expect(out).not.toMatch(/<[^>]*\son\w+=/i); // no event-handler attributes on any tag
    expect(out).not.toMatch(/href="(?!https?:)/i); // every href is http(s)
    expect(out).not.toContain("javascript:alert(1)\"");
  });

  test("the raw HTML stays visible as text", () => {
    expect(html("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(html("[click](javascript:alert(1))")).toBe("<p>click</p>");
  });

  test("safeHref keeps only absolute http(s)", () => {
    expect(safeHref("https://a.example/x")).toBe("https://a.example/x");
    expect(safeHref(" http://a.example ")).toBe("http://a.example/");
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "/relative", "//host/x", "mailto:a@b", "https://"]) expect(safeHref(bad)).toBeNull();
  });

  test("bare URLs become links without trailing punctuation", () => {
    expect(html("see https://example.com/x.")).toBe(
      '<p>see <a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">https://example.com/x</a>.</p>',
    );
  });
});
