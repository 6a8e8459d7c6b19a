// Where the proxy finds the secret of an API key, to verify signatures: a secret file, or a keys
// database (given as a lookup). A secret is only ever compared with, never written anywhere.

/** The secret of an API key, or undefined when it is not known. */
export type SecretLookup = (apiKey: string) => Promise<string | undefined>;

export class SecretFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretFileError';
  }
}

interface KeyPair {
  readonly apiKey: string;
  readonly secretKey: string;
}

const isKeyPair = (v: unknown): v is KeyPair =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as KeyPair).apiKey === 'string' &&
  typeof (v as KeyPair).secretKey === 'string';

/**
 * The secrets a file gives: the JSON `evgen keys create --json` prints (one pair or a list), or
 * lines `<api key> <secret>`, or one line holding a secret alone (for every API key). Blank lines
 * and lines starting with # are skipped.
 */
export function parseSecretFile(text: string): {
  readonly byKey: ReadonlyMap<string, string>;
  readonly any: string | undefined;
} {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (e) {
      throw new SecretFileError(`not valid JSON: ${(e as Error).message}`);
    }
    const pairs = Array.isArray(parsed) ? parsed : [parsed];
    if (!pairs.every(isKeyPair))
      throw new SecretFileError('JSON must be {"apiKey":…,"secretKey":…} or a list of them');
    return { byKey: new Map(pairs.map((p) => [p.apiKey, p.secretKey])), any: undefined };
  }
  const byKey = new Map<string, string>();
  let any: string | undefined;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [first, ...rest] = line.split(/\s+/);
    if (rest.length === 0) {
      if (any !== undefined)
        throw new SecretFileError(`line ${i + 1}: a second secret for every key`);
      any = first!;
    } else if (rest.length === 1) byKey.set(first!, rest[0]!);
    else
      throw new SecretFileError(`line ${i + 1}: expected "<api key> <secret>" or a secret alone`);
  }
  if (byKey.size === 0 && any === undefined) throw new SecretFileError('no secret in the file');
  return { byKey, any };
}

export function secretFileLookup(text: string): { lookup: SecretLookup; secrets: string[] } {
  const { byKey, any } = parseSecretFile(text);
  return {
    lookup: (apiKey) => Promise.resolve(byKey.get(apiKey) ?? any),
    secrets: [...byKey.values(), ...(any !== undefined ? [any] : [])],
  };
}
