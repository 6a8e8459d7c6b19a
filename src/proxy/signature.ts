// A Signature that does not verify, explained: the operation and timestamp the proxy used, the
// string it signed and the clock offset; and, when one of the usual mistakes makes it verify,
// which one. Never the secret, and never a signature (the one sent or the right one).
import { createHmac } from 'node:crypto';

export interface SignedValues {
  readonly Operation: string;
  readonly Timestamp: string;
  readonly Signature: string;
  readonly APIKey: string;
}

type Encoding = 'base64' | 'hex' | 'base64url';

const mac = (algorithm: string, secret: string, message: string, encoding: Encoding) =>
  createHmac(algorithm, Buffer.from(secret, 'utf8'))
    .update(Buffer.from(message, 'utf8'))
    .digest(encoding);

/** The interface's signature: base64 of HMAC-SHA1 over Operation followed by Timestamp. */
export const signatureOf = (secret: string, operation: string, timestamp: string): string =>
  mac('sha1', secret, operation + timestamp, 'base64');

interface Mistake {
  readonly what: string;
  readonly sign: (secret: string, v: SignedValues, bodyOperation: string) => string | undefined;
}

/** Mistakes clients make, each tried once a signature fails (about ten HMACs, then never again). */
const MISTAKES: readonly Mistake[] = [
  {
    what: "it verifies over the body's operation: the Operation sent and the operation signed differ",
    sign: (s, v, body) =>
      body !== v.Operation ? mac('sha1', s, body + v.Timestamp, 'base64') : undefined,
  },
  {
    what: 'it verifies with the secret followed by a line break: the client read its secret with the newline',
    sign: (s, v) => mac('sha1', `${s}\n`, v.Operation + v.Timestamp, 'base64'),
  },
  {
    what: 'it verifies over Timestamp followed by Operation: the client signs them the other way round',
    sign: (s, v) => mac('sha1', s, v.Timestamp + v.Operation, 'base64'),
  },
  {
    what: 'it verifies as HMAC-SHA256: the client signs with SHA-256, not SHA-1',
    sign: (s, v) => mac('sha256', s, v.Operation + v.Timestamp, 'base64'),
  },
  {
    what: 'it verifies as a hexadecimal digest: the client sends hex, not base64',
    sign: (s, v) => mac('sha1', s, v.Operation + v.Timestamp, 'hex'),
  },
  {
    what: 'it verifies as base64url: the client sends the URL-safe alphabet without padding',
    sign: (s, v) => mac('sha1', s, v.Operation + v.Timestamp, 'base64url'),
  },
  {
    what: 'it verifies over the Timestamp alone: the client leaves the operation out',
    sign: (s, v) => mac('sha1', s, v.Timestamp, 'base64'),
  },
];

const offsetText = (ms: number) => `${ms >= 0 ? '+' : '-'}${(Math.abs(ms) / 1000).toFixed(3)} s`;

/**
 * Undefined when the Signature verifies with `secret`; else why not, in one sentence that names
 * what was signed and with which clock offset (the proxy's clock minus the Timestamp's).
 */
export function explainSignature(
  secret: string,
  v: SignedValues,
  bodyOperation: string,
  offsetMs: number | undefined,
): string | undefined {
  if (signatureOf(secret, v.Operation, v.Timestamp) === v.Signature) return undefined;
  const mistake = MISTAKES.find((m) => m.sign(secret, v, bodyOperation) === v.Signature);
  return [
    `the Signature does not verify with the secret of API key ${v.APIKey}:`,
    `signed Operation ${JSON.stringify(v.Operation)} and Timestamp ${JSON.stringify(v.Timestamp)},`,
    `the string ${JSON.stringify(v.Operation + v.Timestamp)} (HMAC-SHA1 keyed with the UTF-8 secret, base64);`,
    `clock offset ${offsetMs === undefined ? 'unknown (the Timestamp is not readable)' : offsetText(offsetMs)};`,
    mistake
      ? `${mistake.what}`
      : "none of the usual mistakes explains it (operation, line break, order, SHA-256, hex, base64url): check that the client holds this API key's secret",
  ].join(' ');
}

export { offsetText };
