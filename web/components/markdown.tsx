/**
 * Renders agent Markdown as Preact elements. Text always goes through text nodes (escaped by Preact); there is
 * no innerHTML anywhere on this path, and the only attributes come from the parsed tree's own fields.
 */
import { Fragment, type ComponentChildren, type VNode } from "preact";
import { useContext, useMemo } from "preact/hooks";
import { highlightCode, type HighlightNode } from "../lib/code-highlight.ts";
import { parseMarkdown, type MdAlign, type MdBlock, type MdInline, type MdListItem } from "../lib/markdown.ts";
import { estimateBlock } from "./row-heights.ts";
import { ScrollerContext, VirtualList } from "./virtual-list.tsx";

/** Pure: Markdown source → elements (exported for tests, which serialise the tree without a DOM). */
export function renderMarkdown(source: string): VNode[] {
  return parseMarkdown(source).map(renderBlock);
}

/**
 * An answer of more blocks than this, shown in the conversation's timeline, keeps only the blocks near the viewport in
 * the DOM: one long answer (a generated document, 10,000 paragraphs) put 20,000 elements on the page in one row.
 */
const WINDOWED_FROM_BLOCKS = 60;

type NumberedBlock = { block: MdBlock; index: number };

export function Markdown({ text, class: className, ...rest }: { text: string; class?: string; "data-testid"?: string }) {
  const blocks = useMemo(() => parseMarkdown(text).map((block, index): NumberedBlock => ({ block, index })), [text]);
  const windowed = useContext(ScrollerContext) !== null && blocks.length > WINDOWED_FROM_BLOCKS;
  return (
    <div class={className ? `markdown ${className}` : "markdown"} data-testid={rest["data-testid"]}>
      {windowed ? (
        <VirtualList items={blocks} keyOf={blockKey} estimate={estimateNumbered} stableEstimates render={({ block, index }) => renderBlock(block, index)} />
      ) : (
        blocks.map(({ block, index }) => renderBlock(block, index))
      )}
    </div>
  );
}

const blockKey = ({ index }: NumberedBlock) => `b${index}`;
const estimateNumbered = ({ block }: NumberedBlock) => estimateBlock(block);

function renderBlock(block: MdBlock, index: number): VNode {
  switch (block.t) {
    case "heading": {
      const Tag = `h${block.level}` as "h1";
      return <Tag key={index}>{inlines(block.c)}</Tag>;
    }
    case "para":
      return <p key={index}>{inlines(block.c)}</p>;
    case "text":
      return <Fragment key={index}>{inlines(block.c)}</Fragment>;
    case "list": {
      const items = block.items.map(renderListItem);
      return block.ordered ? (
        <ol key={index} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={index}>{items}</ul>
      );
    }
    case "code":
      return codeBlock(block.lang, block.v, index);
    case "quote":
      return <blockquote key={index}>{block.c.map(renderBlock)}</blockquote>;
    case "table":
      return (
        <div key={index} class="table-scroll">
          <table>
            <thead>
              <tr>{block.head.map((cell, i) => <th key={i} style={alignStyle(block.align[i])}>{inlines(cell)}</th>)}</tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>{row.map((cell, i) => <td key={i} style={alignStyle(block.align[i])}>{inlines(cell)}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "hr":
      return <hr key={index} />;
  }
}

function renderListItem(item: MdListItem, index: number): VNode {
  if (!item.task) return <li key={index}>{item.c.map(renderBlock)}</li>;
  return (
    <li key={index} class="task">
      <input type="checkbox" checked={item.checked} disabled />
      {item.c.map(renderBlock)}
    </li>
  );
}

function codeBlock(lang: string, code: string, index: number): VNode {
  const highlighted = highlightCode(lang, code);
  return (
    <pre key={index} class="code-block" data-lang={lang || undefined}>
      <code class={lang ? `language-${lang}` : undefined}>{highlighted ? highlighted.map(renderHighlight) : code}</code>
    </pre>
  );
}

function renderHighlight(node: HighlightNode, index: number): ComponentChildren {
  if (typeof node === "string") return node;
  return (
    <span key={index} class={node.cls}>
      {node.c.map(renderHighlight)}
    </span>
  );
}

function alignStyle(align: MdAlign | undefined): string | undefined {
  return align ? `text-align: ${align}` : undefined;
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
    case "br":
      return <br key={index} />;
    case "link":
      return (
        <a key={index} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
          {inlines(node.c)}
        </a>
      );
  }
}
