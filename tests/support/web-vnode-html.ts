/**
 * Serialises a Preact element tree to HTML the way the DOM would receive it, without a DOM: text and attribute
 * values escaped (as Preact does), `dangerouslySetInnerHTML` emitted raw so a test catches any use of it,
 * event-handler props emitted as `on…` attributes so a test catches those too. A context's Provider gives its value to
 * the Consumers below it (a Consumer with no Provider above gets undefined).
 */
import type { ComponentChildren, VNode } from "preact";

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Contexts = ReadonlyMap<unknown, unknown>;
/** A context (Preact's `createContext` makes the Provider the context itself, and its Consumer's `contextType`). */
type ContextFunction = { Consumer?: { contextType?: unknown }; contextType?: unknown };

export function vnodeToHtml(node: ComponentChildren, contexts: Contexts = new Map()): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number" || typeof node === "bigint") return escapeHtml(String(node));
  if (Array.isArray(node)) return node.map((child) => vnodeToHtml(child, contexts)).join("");
  const vnode = node as VNode<Record<string, unknown>>;
  if (typeof vnode.type === "function") {
    const component = vnode.type as ((props: unknown, context?: unknown) => ComponentChildren) & ContextFunction;
    if (component.Consumer?.contextType === component) {
      return vnodeToHtml(vnode.props.children as ComponentChildren, new Map(contexts).set(component, vnode.props.value));
    }
    return vnodeToHtml(component(vnode.props, component.contextType ? contexts.get(component.contextType) : undefined), contexts);
  }
  const { children, dangerouslySetInnerHTML, ...attrs } = vnode.props as Record<string, unknown>;
  const attrText = Object.entries(attrs)
    .filter(([, value]) => value !== undefined && value !== null && value !== false)
    .map(([name, value]) => (typeof value === "function" ? ` ${name.toLowerCase()}="[handler]"` : ` ${name}="${escapeHtml(String(value))}"`))
    .join("");
  const inner = dangerouslySetInnerHTML ? String((dangerouslySetInnerHTML as { __html: string }).__html) : vnodeToHtml(children as ComponentChildren, contexts);
  return `<${String(vnode.type)}${attrText}>${inner}</${String(vnode.type)}>`;
}
