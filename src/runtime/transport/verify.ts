// Server-side authentication of one request: format, window, operation, key, signature, replay —
// in that order, and the replay store is written only after the signature is proven, so forged
// requests cannot fill it.
import { quoteInput } from '../xml/index.js';
import { parseTimestamp, type AuthValues } from './auth.js';
import { EngineFault } from './faults.js';
import { signatureMatches } from './signature.js';
import type { ReplayStore } from './replay.js';

export type KeyLookup = (apiKey: string) => Promise<{ secret: string; name?: string } | undefined>;

export interface VerifyOptions {
  readonly lookupKey: KeyLookup;
  readonly clockSkewSeconds: number;
  readonly replayStore: ReplayStore | undefined;
  readonly now: () => number;
}

/** Signs for an API key that does not exist, so its refusal takes as long as a wrong signature. */
const UNKNOWN_KEY = '\u0000unknown-key';

const refuse = (message: string, status = 403) =>
  new EngineFault('authentication', message, status);

/** Returns the key's name, or throws an authentication fault. */
export async function verifyAuth(
  values: Partial<AuthValues>,
  operation: string,
  o: VerifyOptions,
): Promise<{ name: string | undefined }> {
  const { Timestamp, Operation, Signature, APIKey } = values;
  if (!Timestamp || !Operation || !Signature || !APIKey) {
    const missing = (['Timestamp', 'Operation', 'Signature', 'APIKey'] as const).filter(
      (k) => !values[k],
    );
    throw refuse(`authentication values missing: ${missing.join(', ')}`, 401);
  }
  const at = parseTimestamp(Timestamp);
  if (at === undefined)
    throw refuse('Timestamp must be a UTC time formatted yyyy-MM-ddTHH:mm:ss.fffZ');
  const now = o.now();
  const skew = o.clockSkewSeconds * 1000;
  if (at < now - skew) throw refuse(`Timestamp is older than ${o.clockSkewSeconds} seconds`);
  if (at > now + skew)
    throw refuse(`Timestamp is more than ${o.clockSkewSeconds} seconds in the future`);
  if (Operation !== operation)
    throw refuse(
      `Operation ${quoteInput(Operation)} does not name the operation called (${operation})`,
    );
  const key = await o.lookupKey(APIKey);
  // Same work whether or not the key exists, so timing does not reveal which keys are valid.
  // Only the canonical base64 of the MAC matches (decoding alone would skip stray characters).
  const matches = await signatureMatches(
    key?.secret ?? UNKNOWN_KEY,
    Operation + Timestamp,
    Signature,
  );
  if (!matches || !key) throw refuse('invalid API key or signature');
  if (
    o.replayStore &&
    (await o.replayStore.seen(`${APIKey}\u0000${Operation}\u0000${Timestamp}`, at + skew, now))
  ) {
    throw refuse('replayed request: this APIKey, Operation and Timestamp were already used');
  }
  return { name: key.name };
}
