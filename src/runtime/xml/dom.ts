// The element tree the parser builds and generated decoders read.

export interface XmlElement {
  /** Local name, without prefix. */
  readonly name: string;
  /** Namespace URI, '' when none. */
  readonly ns: string;
  readonly children: XmlElement[];
  /** Direct character data (text and CDATA, references resolved). */
  readonly text: string;
  /** xsi:nil="true" or "1", or an un-namespaced nil="true" (HTTP binding shapes). */
  readonly nil: boolean;
  /** Null-prototype map of attributes other than namespace declarations: `local` or `{ns}local`. */
  readonly attributes: Readonly<Record<string, string>>;
}

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
