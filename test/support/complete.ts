// Our server sends every element, so tests that call it read results as they were written: each
// result the client receives is checked complete by the operation's own encoder (which refuses a
// missing field, naming it) and handed back in its written type.
import { XmlWriter } from '@evgen/runtime/internal';
import type { EventServiceCallOptions, EventServiceClient } from '@evgen/event-management/client';
import { operations } from '@evgen/event-management/operations';
import {
  OPERATION_NAMES,
  type OperationName,
  type OperationTypes,
} from '@evgen/event-management/types';

/** Operations without parameters are called with no argument, as on the client. */
type Args<P> =
  P extends Record<string, never>
    ? [params?: P, options?: EventServiceCallOptions]
    : [params: P, options?: EventServiceCallOptions];

export type CompleteClient = {
  readonly [K in OperationName as Uncapitalize<K>]: (
    ...args: Args<OperationTypes[K]['params']>
  ) => Promise<OperationTypes[K]['result']>;
} & { readonly iterate: EventServiceClient['iterate'] };

/** The result, now known to be complete: an XmlEncodeError names the first missing field. */
export function complete<K extends OperationName>(
  name: K,
  received: OperationTypes[K]['received'],
): OperationTypes[K]['result'] {
  const op = operations[name] as unknown as {
    encodeSoapResponse(r: unknown, ns: string, out: XmlWriter): void;
  };
  op.encodeSoapResponse(received, 'urn:complete', new XmlWriter());
  return received as OperationTypes[K]['result'];
}

export function completeClient(client: EventServiceClient): CompleteClient {
  const call = client as unknown as Record<
    string,
    (params: unknown, options?: EventServiceCallOptions) => Promise<never>
  >;
  const methods = Object.fromEntries(
    OPERATION_NAMES.map((name) => {
      const method = name.charAt(0).toLowerCase() + name.slice(1);
      return [
        method,
        async (params: unknown, options?: EventServiceCallOptions) =>
          complete(name, await call[method]!.call(client, params, options)),
      ];
    }),
  );
  return { ...methods, iterate: client.iterate } as unknown as CompleteClient;
}
