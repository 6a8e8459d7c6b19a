// Small building blocks the generated codecs call: list items, operation elements, HTTP-binding
// documents, and finding the expected child or root element by namespace and local name.
import {
  XML_DECLARATION,
  XSI_XSD_DECLARATIONS,
  XmlDecodeError,
  escapeAttr,
  missingElement,
  type XmlElement,
} from '../xml/index.js';

/** Items of a list, each wrapped in `<itemName>`. */
export function writeItems<T>(items: readonly T[], itemName: string, write: (item: T) => string): string {
  const open = `<${itemName}>`;
  const close = `</${itemName}>`;
  let s = '';
  for (let i = 0; i < items.length; i++) s += open + write(items[i]!) + close;
  return s;
}

/** `<name xmlns="ns">content</name>`: an operation or response element in the service namespace. */
export function soapOperationElement(name: string, ns: string, content: string): string {
  return content === '' ? `<${name} xmlns="${escapeAttr(ns)}" />` : `<${name} xmlns="${escapeAttr(ns)}">${content}</${name}>`;
}

/** A whole HTTP GET/POST response document whose root is `root` in the service namespace. */
export function httpDocument(root: string, ns: string, content: string): string {
  return `${XML_DECLARATION}<${root}${XSI_XSD_DECLARATIONS} xmlns="${escapeAttr(ns)}">${content}</${root}>`;
}

/** The first child named `name` in `ns`; a missing one is a decode error naming the parent. */
export function requireChild(el: XmlElement, ns: string, name: string): XmlElement {
  for (const c of el.children) if (c.name === name && c.ns === ns) return c;
  throw missingElement(name).prepend(el.name);
}

/** The document root, which must be `name` in `ns`. */
export function requireRoot(root: XmlElement | undefined, ns: string, name: string): XmlElement {
  if (root === undefined) throw new XmlDecodeError(name, `a ${name} document`, undefined);
  if (root.name !== name || root.ns !== ns) {
    throw new XmlDecodeError(root.name, `root element ${name} in namespace ${ns}`, `${root.name} in namespace ${root.ns || '(none)'}`);
  }
  return root;
}
