// The oracle for test/runtime/xml-differential.test.ts: the reader the runtime used before it had
// its own scanner, on saxes (a conformant XML parser). Same refusals (DOCTYPE, processing
// instructions, limits, encodings); builds the same XmlElement tree.
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';
import { XmlParseError, type XmlElement, type XmlLimits } from '@evgen/runtime';
import { XSI_NS } from '@evgen/runtime/internal';

const DEFAULT_XML_LIMITS: XmlLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxDepth: 64,
  maxElements: 2_000_000,
  maxNames: Number.POSITIVE_INFINITY, // not an oracle's concern: the runtime's own bound
};

const EMPTY_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze(
  Object.create(null) as Record<string, string>,
);

interface MutableElement {
  name: string;
  ns: string;
  children: MutableElement[];
  text: string;
  nil: boolean;
  attributes: Readonly<Record<string, string>>;
}

function toText(input: string | Uint8Array, limits: XmlLimits): string {
  const tooLarge = () =>
    new XmlParseError('limit', `document larger than the limit of ${limits.maxBytes} bytes`);
  if (typeof input === 'string') {
    if (new TextEncoder().encode(input).length > limits.maxBytes) throw tooLarge();
    return input;
  }
  if (input.byteLength > limits.maxBytes) throw tooLarge();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    throw new XmlParseError('encoding', 'document is not valid UTF-8');
  }
}

function attributesOf(tag: SaxesTagNS): {
  attributes: Readonly<Record<string, string>>;
  nil: boolean;
} {
  let attributes = EMPTY_ATTRIBUTES;
  let nil = false;
  for (const key in tag.attributes) {
    const a = tag.attributes[key] as SaxesAttributeNS;
    if (a.prefix === 'xmlns' || a.name === 'xmlns') continue;
    if (
      a.local === 'nil' &&
      (a.uri === XSI_NS || a.uri === '') &&
      (a.value === 'true' || a.value === '1')
    )
      nil = true;
    if (attributes === EMPTY_ATTRIBUTES) attributes = Object.create(null) as Record<string, string>;
    (attributes as Record<string, string>)[a.uri ? `{${a.uri}}${a.local}` : a.local] = a.value;
  }
  return { attributes, nil };
}

/** Parses a whole document into its root element, or throws XmlParseError. */
export function parseWithSaxes(
  input: string | Uint8Array,
  limits?: Partial<XmlLimits>,
): XmlElement {
  const lim = limits ? { ...DEFAULT_XML_LIMITS, ...limits } : DEFAULT_XML_LIMITS;
  const text = toText(input, lim);
  const parser = new SaxesParser({ xmlns: true });
  const stack: MutableElement[] = [];
  let root: MutableElement | undefined;
  let count = 0;

  parser.on('doctype', () => {
    throw new XmlParseError(
      'doctype',
      'a DOCTYPE is not allowed (SOAP forbids DTDs; entities are never expanded)',
    );
  });
  parser.on('processinginstruction', (pi) => {
    throw new XmlParseError(
      'processing-instruction',
      `processing instruction <?${pi.target}?> is not allowed`,
    );
  });
  if (typeof input !== 'string') {
    parser.on('xmldecl', (decl) => {
      if (decl.encoding !== undefined && !/^utf-?8$/i.test(decl.encoding)) {
        throw new XmlParseError(
          'encoding',
          `encoding ${decl.encoding} is not supported; send UTF-8`,
        );
      }
    });
  }
  parser.on('opentag', (tag) => {
    if (++count > lim.maxElements)
      throw new XmlParseError('limit', `more than ${lim.maxElements} elements`);
    if (stack.length >= lim.maxDepth)
      throw new XmlParseError('limit', `nesting deeper than ${lim.maxDepth} elements`);
    const { attributes, nil } = attributesOf(tag);
    const el: MutableElement = {
      name: tag.local ?? tag.name,
      ns: tag.uri ?? '',
      children: [],
      text: '',
      nil,
      attributes,
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (t: string) => {
    const cur = stack[stack.length - 1];
    if (cur) cur.text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  // No 'error' handler: saxes then throws on malformed input, and a seventh registered handler
  // makes saxes several times slower (measured: 85 → 16 MB/s), so errors are wrapped here.
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof XmlParseError) throw e;
    throw new XmlParseError('syntax', `malformed XML: ${(e as Error).message}`);
  }
  if (!root) throw new XmlParseError('syntax', 'malformed XML: no root element');
  return root;
}
