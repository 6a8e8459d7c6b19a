// Small building blocks the generated codecs call: list items, operation elements, HTTP-binding
// documents, and finding the expected child or root element by namespace and local name.
import {
  NO_ELEMENT,
  XML_DECLARATION,
  XSI_XSD_DECLARATIONS,
  XmlDecodeError,
  escapeAttr,
  isArray,
  missingElement,
  wrongType,
  type XmlDocument,
} from '../xml/index.js';

/**
 * Items of a list field, each wrapped in `<itemName>`; anything but an array is refused. `write`
 * gets each item and the field's path (a generated encoder or a value writer refuses a bad item).
 */
export function writeItems<T>(
  items: readonly T[],
  itemName: string,
  write: (item: T, path: string) => string,
  path: string,
): string {
  if (!isArray(items)) throw wrongType(path, 'list', items);
  if (items.length === 0) return '';
  const close = `</${itemName}>`;
  // One literal between items, as the generated encoders join their fields' tags.
  const between = `${close}<${itemName}>`;
  let s = `<${itemName}>` + write(items[0]!, path);
  for (let i = 1; i < items.length; i++) s += between + write(items[i]!, path);
  return s + close;
}

/** `<name xmlns="ns">`: the start tag of an operation or response element in the service namespace. */
export const openOperationElement = (name: string, ns: string): string =>
  `<${name} xmlns="${escapeAttr(ns)}">`;

/** `<name xmlns="ns">content</name>`, or `<name xmlns="ns" />` when there is no content. */
export function soapOperationElement(name: string, ns: string, content: string): string {
  return content === ''
    ? `<${name} xmlns="${escapeAttr(ns)}" />`
    : `${openOperationElement(name, ns)}${content}</${name}>`;
}

/** The start of an HTTP GET/POST response document whose root is `root` in the service namespace. */
export function httpDocumentStart(root: string, ns: string): string {
  return `${XML_DECLARATION}<${root}${XSI_XSD_DECLARATIONS} xmlns="${escapeAttr(ns)}">`;
}

/** The first child named `name` in `ns`, or NO_ELEMENT. */
export function findChild(d: XmlDocument, el: number, ns: string, name: string): number {
  const nsId = d.nsId(ns);
  for (let c = d.firstChild(el); c !== NO_ELEMENT; c = d.nextSibling(c))
    if (d.nsIdOf(c) === nsId && d.name(c) === name) return c;
  return NO_ELEMENT;
}

/** The first child named `name` in `ns`; a missing one is a decode error naming the parent. */
export function requireChild(d: XmlDocument, el: number, ns: string, name: string): number {
  const c = findChild(d, el, ns, name);
  if (c === NO_ELEMENT) throw missingElement(name).prepend(d.name(el));
  return c;
}

/** The document, whose root (element 0) must be `name` in `ns`; an empty answer has no document. */
export function requireRoot(d: XmlDocument | undefined, ns: string, name: string): XmlDocument {
  if (d === undefined) throw new XmlDecodeError(name, `a ${name} document`, undefined);
  if (d.name(0) !== name || d.ns(0) !== ns) {
    throw new XmlDecodeError(
      d.name(0),
      `root element ${name} in namespace ${ns}`,
      `${d.name(0)} in namespace ${d.ns(0) || '(none)'}`,
    );
  }
  return d;
}
