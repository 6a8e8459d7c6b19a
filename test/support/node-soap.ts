// node-soap's clients are untyped (their methods are made from the WSDL at run time): one typed
// way to call a port's operation and to read the untyped results by their path of names.
import type { Client } from 'soap';

type Method = (args: object, done: (err: unknown, result: unknown) => void) => void;
const isMethod = (v: unknown): v is Method => typeof v === 'function';

/** The value at `path` below `value`, or undefined where the path leaves the objects. */
export function at(value: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>(
    (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
    value,
  );
}

/** Calls `operation` through `client[service][port]`, node-soap's callback form, as a promise. */
export function callPort(
  client: Client,
  service: string,
  port: string,
  operation: string,
  args: object,
): Promise<unknown> {
  const method = at(client, service, port, operation);
  if (!isMethod(method))
    return Promise.reject(new Error(`node-soap made no ${service}.${port}.${operation}`));
  return new Promise((resolve, reject) =>
    method(args, (err, result) =>
      err
        ? reject(err instanceof Error ? err : new Error('node-soap call failed', { cause: err }))
        : resolve(result),
    ),
  );
}
