// What a cassette or a report never holds: the Signature (as an element, a header, a query or
// form parameter, or its value anywhere else, escaped or URL-encoded) and any secret the proxy
// knows, and the headers that carry other credentials.
import { escapeText } from '@evgen/runtime/internal';

export const REDACTED = '[redacted]';

/** Header fields that carry credentials other than the interface's. */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

/** As XML text; a value with characters XML cannot hold cannot be in it either. */
const asXmlText = (s: string) => {
  try {
    return escapeText(s);
  } catch {
    return s;
  }
};

/** The forms a value takes on the wire: as is, XML-escaped, URL-encoded (either hex case). */
function forms(value: string): string[] {
  const encoded = encodeURIComponent(value);
  const plus = new URLSearchParams({ v: value }).toString().slice(2);
  const lower = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  return [...new Set([value, asXmlText(value), encoded, lower(encoded), plus, lower(plus)])];
}

/** Values shorter than this are not looked for: they would blank out ordinary text. */
const MIN_LENGTH = 6;

export class Redactor {
  readonly #values: string[];
  readonly #element: RegExp;
  readonly #param: RegExp;

  /** `field`: the Signature's element, header and parameter name; `values`: signatures and secrets. */
  constructor(
    private readonly field: string,
    values: readonly (string | undefined)[],
  ) {
    this.#values = [
      ...new Set(values.filter((v): v is string => v !== undefined && v.length >= MIN_LENGTH)),
    ]
      .flatMap(forms)
      .sort((a, b) => b.length - a.length);
    const name = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.#element = new RegExp(
      `(<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>)[^<]*(</(?:[\\w.-]+:)?${name}\\s*>)`,
      'g',
    );
    this.#param = new RegExp(`(^|[?&])(${name}=)[^&#\\s]*`, 'gi');
  }

  /** Text of a body, a message or a URL, without the signature and the secrets. */
  text(s: string): string {
    let out = s.replace(this.#element, `$1${REDACTED}$2`).replace(this.#param, `$1$2${REDACTED}`);
    for (const v of this.#values) if (out.includes(v)) out = out.split(v).join(REDACTED);
    return out;
  }

  /** Header fields as [name, value] pairs, the Signature's and other credentials' values redacted. */
  headers(pairs: readonly (readonly [string, string])[]): [string, string][] {
    return pairs.map(([k, v]) => {
      const lower = k.toLowerCase();
      return lower === this.field.toLowerCase() || CREDENTIAL_HEADERS.has(lower)
        ? [k, REDACTED]
        : [k, this.text(v)];
    });
  }
}
