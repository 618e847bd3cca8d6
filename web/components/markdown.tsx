/**
 * Renders agent Markdown as Preact elements. Text always goes through text nodes (escaped by Preact); there is
 * no innerHTML anywhere on this path.
 */
import type { ComponentChildren, VNode } from "preact";
import { useMemo } from "preact/hooks";
import { parseMarkdown, type MdBlock, type MdInline } from "../lib/markdown.ts";

/** Pure: Markdown source → elements (exported for tests, which serialise the tree without a DOM). */
export function renderMarkdown(source: string): VNode[] {
  return parseMarkdown(source).map(renderBlock);
}

export function Markdown({ text, class: className, ...rest }: { text: string; class?: string; "data-testid"?: string }) {
  const nodes = useMemo(() => renderMarkdown(text), [text]);
  return (
    <div class={className ? `markdown ${className}` : "markdown"} data-testid={rest["data-testid"]}>
      {nodes}
    </div>
  );
}

function renderBlock(block: MdBlock, index: number): VNode {
  switch (block.t) {
    case "heading": {
      const Tag = `h${block.level}` as "h1";
      return <Tag key={index}>{inlines(block.c)}</Tag>;
    }
    case "para":
      return <p key={index}>{inlines(block.c)}</p>;
    case "list": {
      const items = block.items.map((item, i) => <li key={i}>{inlines(item)}</li>);
      return block.ordered ? <ol key={index} start={block.start}>{items}</ol> : <ul key={index}>{items}</ul>;
    }
    case "code":
      return (
        <pre key={index} class="code-block" data-lang={block.lang || undefined}>
          <code>{block.v}</code>
        </pre>
      );
    case "quote":
      return <blockquote key={index}>{block.c.map(renderBlock)}</blockquote>;
    case "hr":
      return <hr key={index} />;
  }
}

function inlines(nodes: MdInline[]): ComponentChildren[] {
  return nodes.map(renderInline);
}

function renderInline(node: MdInline, index: number): ComponentChildren {
  switch (node.t) {
    case "text":
      return node.v;
    case "code":
      return <code key={index}>{node.v}</code>;
    case "strong":
      return <strong key={index}>{inlines(node.c)}</strong>;
    case "em":
      return <em key={index}>{inlines(node.c)}</em>;
    case "del":
      return <del key={index}>{inlines(node.c)}</del>;
    case "link":
      return (
        <a key={index} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
          {inlines(node.c)}
        </a>
      );
  }
}
