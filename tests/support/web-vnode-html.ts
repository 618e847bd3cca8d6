/**
 * Serialises a Preact element tree to HTML the way the DOM would receive it, without a DOM: text and attribute
 * values escaped (as Preact does), `dangerouslySetInnerHTML` emitted raw so a test catches any use of it,
 * event-handler props emitted as `on…` attributes so a test catches those too.
 */
import type { ComponentChildren, VNode } from "preact";

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function vnodeToHtml(node: ComponentChildren): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number" || typeof node === "bigint") return escapeHtml(String(node));
  if (Array.isArray(node)) return node.map(vnodeToHtml).join("");
  const vnode = node as VNode<Record<string, unknown>>;
  if (typeof vnode.type === "function") {
    const rendered = (vnode.type as (props: unknown) => ComponentChildren)(vnode.props);
    return vnodeToHtml(rendered);
  }
  const { children, dangerouslySetInnerHTML, ...attrs } = vnode.props as Record<string, unknown>;
  const attrText = Object.entries(attrs)
    .filter(([, value]) => value !== undefined && value !== null && value !== false)
    .map(([name, value]) => (typeof value === "function" ? ` ${name.toLowerCase()}="[handler]"` : ` ${name}="${escapeHtml(String(value))}"`))
    .join("");
  const inner = dangerouslySetInnerHTML ? String((dangerouslySetInnerHTML as { __html: string }).__html) : vnodeToHtml(children as ComponentChildren);
  return `<${String(vnode.type)}${attrText}>${inner}</${String(vnode.type)}>`;
}
