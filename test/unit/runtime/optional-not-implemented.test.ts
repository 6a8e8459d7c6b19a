// A fault table without a code for notImplemented (a spec from before the role, such as the
// released 1.0.0): the engine serves complete handlers, refuses { partial: true } at creation
// naming what the spec lacks, and the conformance checker never takes a fault without a detail
// code for "not implemented" (no code on either side is no match).
import { describe, expect, it } from 'vitest';
import { type ServiceHandlerOptions, type WireSpec } from '@evgen/runtime';
import { createServiceHandler, EngineFault, resolveFault } from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { operations } from '@evgen/event-management/operations';
import { WIRE } from '@evgen/event-management/service';
import { renderWsdl } from '@evgen/event-management/wsdl';
import { createContext } from '../../../src/runtime/conformance/context.js';
import { notImplemented, type Raw } from '../../../src/runtime/conformance/wire.js';
import { writeSoapEnvelope } from '../../../src/runtime/xml/index.js';

const { notImplemented: code, ...others } = WIRE.faults.raisedFor;
const WITHOUT: WireSpec = {
  ...WIRE,
  faults: {
    ...WIRE.faults,
    raisedFor: others,
    codes: WIRE.faults.codes.filter((c) => c.code !== code),
  },
};

const all = Object.values(operations);
const every = Object.fromEntries(all.map((op) => [op.method, () => undefined]));
const [first, ...rest] = all;
const options = (handlers: object, wire: WireSpec): ServiceHandlerOptions => ({
  operations,
  handlers,
  auth: authScheme,
  wire,
  lookupKey: () => Promise.resolve(undefined),
  wsdl: renderWsdl,
  clockSkewSeconds: 60,
  onDiagnostic: () => undefined,
});
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('the engine, on a fault table without notImplemented', () => {
  it('serves every operation implemented', () => {
    expect(typeof createServiceHandler(options(every, WITHOUT))).toBe('function');
  });

  it('refuses { partial: true } when created, naming what the spec lacks', () => {
    const partial = { ...options({ [first!.method]: () => undefined }, WITHOUT), partial: true };
    const e = thrown(() => createServiceHandler(partial));
    expect(e).toBeInstanceOf(TypeError);
    expect((e as Error).message).toBe(
      '{ partial: true } needs the fault code answered for an operation not implemented, and this ' +
        "service's fault table names none (the spec has no code with raisedFor: notImplemented in " +
        'spec/errors.yaml): implement every operation, or add that code to the spec',
    );
  });

  it('refuses missing handlers without offering { partial: true }', () => {
    const e = thrown(() =>
      createServiceHandler(options({ [first!.method]: () => undefined }, WITHOUT)),
    );
    expect(e).toBeInstanceOf(TypeError);
    expect((e as Error).message).toBe(
      `no handler for ${rest.map((op) => op.name).join(', ')}: implement them`,
    );
  });

  it('answers an engine fault for the missing role with the internal code', () => {
    const r = resolveFault(new EngineFault('notImplemented', 'x'), WITHOUT.faults);
    expect(r.def.code).toBe(WITHOUT.faults.raisedFor.internal);
  });
});

describe('the conformance checker, on a fault table without notImplemented', () => {
  const soap = WIRE.bindings.find((b) => b.soapVersion === '1.1')!;
  // A SOAP 1.1 fault with no detail: a server failing, saying nothing of implementation.
  const raw: Raw = {
    status: 500,
    type: soap.responseContentType,
    body: new TextEncoder().encode(
      writeSoapEnvelope(
        '1.1',
        undefined,
        '<soap:Fault><faultcode>soap:Server</faultcode><faultstring>database down</faultstring></soap:Fault>',
      ),
    ),
  };
  const ctx = (wire: WireSpec) =>
    createContext({
      url: 'http://127.0.0.1:9',
      apiKey: 'k',
      secretKey: 's',
      model: CONFORMANCE_MODEL,
      operations,
      auth: authScheme,
      wire,
    });

  it('does not read a fault without a detail code as "not implemented"', () => {
    expect(notImplemented(ctx(WITHOUT), raw)).toBeUndefined();
    expect(notImplemented(ctx(WIRE), raw)).toBeUndefined();
  });

  it('still reads the table’s code as "not implemented" where the table has one', () => {
    const detail = `<detail><${WIRE.faults.detailElement} xmlns="urn:x">${code}</${WIRE.faults.detailElement}></detail>`;
    const coded: Raw = {
      ...raw,
      body: new TextEncoder().encode(
        new TextDecoder().decode(raw.body).replace('</faultstring>', `</faultstring>${detail}`),
      ),
    };
    expect(notImplemented(ctx(WIRE), coded)).toContain(`[${code}]`);
  });
});
