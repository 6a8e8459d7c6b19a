// The Signature's cost through the platform (signature.ts): HMAC-SHA1 with node:crypto (what the
// server and clients on Node use) next to Web Crypto (what browsers use, measured here on Node's
// own Web Crypto), in alternating rounds; each figure is the time of one awaited signature, as
// the server verifies one per request.
import {
  signatureImplementations,
  type SignatureImplementation,
} from '../runtime/transport/signature.js';
import { alternate, median, roundRatios } from './measure.js';

export interface SignatureFigures {
  /** µs per signature, the median of the rounds. */
  readonly nodeUs: number;
  readonly webCryptoUs: number;
  /** Web Crypto ÷ node:crypto, the median of the rounds' own ratios. */
  readonly ratio: number;
  readonly ratios: readonly number[];
}

const SECRET = 'c2VjcmV0LWtleS1vZi10aGUtYmVuY2g';

/** µs per signature over `calls` signatures of distinct messages, one at a time. */
async function perSignature(impl: SignatureImplementation, calls: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++)
    await impl.sign(
      SECRET,
      `GetEventDetails72026-01-02T03:04:05.${String(i % 1000).padStart(3, '0')}Z`,
    );
  return ((performance.now() - started) * 1000) / calls;
}

export async function benchSignature(quick: boolean): Promise<SignatureFigures> {
  const [node, web] = signatureImplementations();
  if (node?.name !== 'node:crypto' || web?.name !== 'Web Crypto')
    throw new Error('the bench needs both node:crypto and Web Crypto');
  const calls = quick ? 2_000 : 20_000;
  await perSignature(node, 1_000); // warm-up
  await perSignature(web, 1_000);
  const [nodeUs, webUs] = await alternate(
    quick ? 3 : 5,
    () => perSignature(node, calls),
    () => perSignature(web, calls),
  );
  // A ratio of costs: the rate is the inverse of the time.
  const { ratio, ratios } = roundRatios(webUs, nodeUs, (us) => us);
  return { nodeUs: median(nodeUs), webCryptoUs: median(webUs), ratio, ratios };
}
