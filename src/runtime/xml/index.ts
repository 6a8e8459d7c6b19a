// What xml/ offers the rest of the runtime and its two entry points (../index.ts, the public
// surface; ../internal.ts, evgen's own), by name.
export { NO_ELEMENT, XmlDocument } from './document.js';
export { XSI_NS, type XmlElement } from './dom.js';
export {
  SOAP11_NS,
  SOAP12_NS,
  XML_DECLARATION,
  XSI_XSD_DECLARATIONS,
  parseSoapEnvelope,
  readSoapEnvelope,
  writeSoapEnvelope,
  writeSoapMessage,
  type SoapVersion,
} from './envelope.js';
export {
  QUOTED_INPUT_CHARS,
  ValueError,
  XmlDecodeError,
  XmlEncodeError,
  XmlParseError,
  cutInput,
  isArray,
  quoteInput,
  wrongType,
  type XmlParseErrorCode,
} from './errors.js';
export { DEFAULT_XML_LIMITS, parseXml, readXml, type XmlLimits } from './parse.js';
export {
  missingElement,
  nilNotAllowed,
  readBoolean,
  readComplex,
  readDateTime,
  readDecimal,
  readInt,
  readList,
  readString,
} from './read.js';
export {
  parseBooleanLexical,
  parseDateTimeLexical,
  parseDecimalLexical,
  parseIntLexical,
  type Decimal,
  type LocalDateTime,
} from './values.js';
export {
  checkString,
  escapeAttr,
  escapeText,
  writeBoolean,
  writeDateTime,
  writeDecimal,
  writeInt,
  writeString,
} from './write.js';
export { STRING_UNITS, XmlWriter, xmlString } from './writer.js';
