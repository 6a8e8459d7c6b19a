// Reading a document: size first, then UTF-8, then one checked pass of the scanner. readXml gives
// the flat XmlDocument the generated decoders walk; parseXml gives an XmlElement tree for code that
// wants one (faults, WSDL, conformance checks on small documents).
import type { XmlElement } from './dom.js';
import { XmlDocument } from './document.js';
import { XmlParseError } from './errors.js';
import { scanDocument } from './scan.js';
import { encodeUtf8, isUtf8, utf8Source } from './utf8.js';

export interface XmlLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxElements: number;
  /**
   * Distinct element and attribute names a document may introduce (names the reader has not met
   * before): each costs a check and an interned string, so a document of random names must stop
   * early. A SOAP message of this interface uses about 60.
   */
  readonly maxNames: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxDepth: 64,
  maxElements: 2_000_000,
  maxNames: 500,
};

/** UTF-8 length of a string, without Buffer so the runtime also runs in browsers. */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? (i++, 4) : 3;
  }
  return n;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function toBytes(input: string | Uint8Array, limits: XmlLimits): Uint8Array {
  const tooLarge = () =>
    new XmlParseError('limit', `document larger than the limit of ${limits.maxBytes} bytes`);
  if (typeof input === 'string') {
    if (
      input.length > limits.maxBytes ||
      (input.length * 3 > limits.maxBytes && utf8Length(input) > limits.maxBytes)
    )
      throw tooLarge();
    // Encoding would turn a lone surrogate into U+FFFD silently: refuse it as the character it is.
    const bad = LONE_SURROGATE.exec(input);
    if (bad)
      throw new XmlParseError(
        'syntax',
        `malformed XML: character U+${bad[0].charCodeAt(0).toString(16).toUpperCase()} is not allowed in XML`,
      );
    return encodeUtf8(input);
  }
  if (input.byteLength > limits.maxBytes) throw tooLarge();
  if (!isUtf8(input)) throw new XmlParseError('encoding', 'document is not valid UTF-8');
  return input;
}

/** Reads and checks a whole document, or throws XmlParseError. */
export function readXml(input: string | Uint8Array, limits?: Partial<XmlLimits>): XmlDocument {
  const lim = limits ? { ...DEFAULT_XML_LIMITS, ...limits } : DEFAULT_XML_LIMITS;
  const src = utf8Source(toBytes(input, lim));
  const table = scanDocument(src, {
    maxDepth: lim.maxDepth,
    maxElements: lim.maxElements,
    maxNames: lim.maxNames,
    checkEncoding: typeof input !== 'string',
  });
  return new XmlDocument(src, table);
}

/** Reads a whole document into its root element's tree, or throws XmlParseError. */
export function parseXml(input: string | Uint8Array, limits?: Partial<XmlLimits>): XmlElement {
  return readXml(input, limits).element(0);
}
