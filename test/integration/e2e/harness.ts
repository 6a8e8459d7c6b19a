// A generated server on 127.0.0.1 with spy handlers, and raw signed requests for each binding, for
// tests that need to send what the generated client never would.
import {
  listen,
  type ListenOptions,
  type RunningServer,
  type ServiceHandlerOptions,
} from '@evgen/runtime';
import { createEventService, type ServiceHandlers } from '@evgen/event-management/server';

import { soapNamespaceOf } from '../../support/requests.js';
import { lookupTestKey } from '../../support/stub.js';

export * from '../../support/requests.js';

export interface Harness {
  readonly server: RunningServer;
  readonly ns: string;
  /** Names of handler methods called, in order. */
  readonly calls: string[];
  /** What the service told the operator (onDiagnostic): unimplemented operations, internal errors. */
  readonly diagnostics: string[];
}

export async function startHarness(
  handlers: Partial<ServiceHandlers>,
  options: Partial<ServiceHandlerOptions> & ListenOptions = {},
): Promise<Harness> {
  const calls: string[] = [];
  const diagnostics: string[] = [];
  const spied = new Proxy(handlers, {
    get: (target, prop) => {
      const fn = (target as Record<string | symbol, unknown>)[prop];
      return typeof fn === 'function'
        ? (...args: unknown[]): unknown => (
            calls.push(String(prop)),
            Reflect.apply(fn, target, args)
          )
        : fn;
    },
  });
  const service = createEventService(spied, {
    lookupKey: lookupTestKey,
    onDiagnostic: (m) => diagnostics.push(m),
    ...options,
    partial: true,
  });
  const server = await listen(service, { host: '127.0.0.1', port: 0, ...options });
  return { server, ns: soapNamespaceOf(server.url), calls, diagnostics };
}
