// Answers the checker did not ask for itself (traffic through a proxy, a recording), held against
// the same rules as the runner's own calls: the same check names, levels, sources and messages.
import type { Binding, FaultReading } from '../transport/index.js';
import {
  bindingDef,
  createContext,
  operationSpec,
  type ConformanceOptions,
  type Ctx,
} from './context.js';
import { wsdlFailures } from './errors.js';
import { clientRefusal, faultTextFailures } from './hostile.js';
import type { CheckFamily, Level } from './model.js';
import { REFUSALS, type RefusalKind } from './refusals.js';
import { checkResponse, responseResults } from './responses.js';
import { CHECK_NAMES, Findings, resultOf, sourceName, type ConformanceResult } from './results.js';
import { faultFailures, refusalFailures } from './security.js';
import { describe, faultOf, notImplemented, type Raw } from './wire.js';

/** An answer as it came: status, Content-Type (empty when none) and body. */
export type RawAnswer = Raw;

/** The tables and level of a run; no server, key or secret: nothing is sent. */
export type AnswerCheckOptions = Omit<
  ConformanceOptions,
  'url' | 'apiKey' | 'secretKey' | 'values' | 'hostile' | 'hostileWaitMs' | 'only' | 'allowWrites'
>;

export class AnswerChecker {
  readonly #c: Ctx;

  constructor(o: AnswerCheckOptions) {
    this.#c = createContext({ ...o, url: 'http://answers.invalid', apiKey: '', secretKey: '' });
  }

  /** The level answers are checked at. */
  get level(): Level {
    return this.#c.level;
  }

  /** Whether checks of this family are reported at this level. */
  runs(family: CheckFamily): boolean {
    return this.#c.level === 'evgen' || this.#c.model.checks[family].level === 'document';
  }

  /** Whether the model has this operation. */
  operationKnown(name: string): boolean {
    return this.#c.model.operations.some((op) => op.name === name);
  }

  /** The level and source (a document section, or `gap:<id>`) of a family's checks. */
  source(family: CheckFamily): { readonly level: Level; readonly source: string } {
    const k = this.#c.model.checks[family];
    return { level: k.level, source: sourceName(k.level, k.source) };
  }

  /** The family a refusal's check belongs to on this binding (HTTP credentials are a gap decision). */
  refusalFamily(kind: RefusalKind, binding: Binding): CheckFamily {
    const [soap, http] = REFUSALS[kind].family;
    return bindingDef(this.#c, binding).kind === 'soap' ? soap : http;
  }

  /**
   * An answer to a request a faithful server refuses (for the reason `kind`), judged as the runner
   * judges the answer to the request it sends to provoke that refusal: the same check name and
   * failures. Undefined where the level does not hold the check's family.
   */
  refusal(
    kind: RefusalKind,
    group: string,
    binding: Binding,
    raw: Raw,
  ): ConformanceResult | undefined {
    const family = this.refusalFamily(kind, binding);
    if (!this.runs(family)) return undefined;
    const def: { check: string; clientError?: true } = REFUSALS[kind];
    const failures = [
      ...refusalFailures(this.#c, binding, raw),
      ...(def.clientError ? clientRefusal(this.#c, raw) : []),
    ];
    return resultOf(this.#c.model, family, { group, binding, check: def.check }, failures);
  }

  /** An operation's answer (200 or not), as `evgen conformance` checks its own: one result per check. */
  response(operation: string, binding: Binding, ns: string, raw: Raw): ConformanceResult[] {
    const c = { ...this.#c, ns };
    const op = operationSpec(c, operation);
    const f = new Findings();
    checkResponse(c, op, binding, raw, f);
    return responseResults(c, op, binding, f);
  }

  /**
   * A refusal in the form the fault table gives its code; `expected` null: the code it names.
   * Undefined where the level does not hold this family.
   */
  faultForm(
    group: string,
    binding: Binding,
    raw: Raw,
    expected: string | null,
  ): ConformanceResult | undefined {
    if (!this.runs('faultForm')) return undefined;
    const at = { group, binding, check: CHECK_NAMES.faultForm };
    return resultOf(this.#c.model, 'faultForm', at, faultFailures(this.#c, binding, raw, expected));
  }

  /** No stack frame or file path in a refusal's text. */
  faultText(group: string, binding: Binding, raw: Raw): ConformanceResult | undefined {
    if (!this.runs('faultText')) return undefined;
    const at = { group, binding, check: CHECK_NAMES.faultText };
    return resultOf(this.#c.model, 'faultText', at, faultTextFailures(this.#c, raw));
  }

  /** An answer to GET {endpoint}?wsdl, for a service whose namespace is `ns`. */
  wsdl(ns: string, raw: Raw): ConformanceResult | undefined {
    if (!this.runs('wsdl')) return undefined;
    const at = { group: 'WSDL', binding: 'wsdl', check: CHECK_NAMES.wsdl };
    const failures = wsdlFailures({ ...this.#c, ns }, { ...raw, type: raw.type || null });
    return resultOf(this.#c.model, 'wsdl', at, failures);
  }

  /** The fault an answer carries (SOAP 1.1, SOAP 1.2 or a text body), if it is one. */
  fault(raw: Raw): FaultReading | undefined {
    return faultOf(this.#c, raw);
  }

  /** Why an answer says the operation is not implemented, if it does. */
  notImplemented(raw: Raw): string | undefined {
    return notImplemented(this.#c, raw);
  }

  /** One line for a report: `HTTP 500, fault soap:Client [AuthenticationFailed] "reason"`. */
  describe(raw: Raw): string {
    return describe(this.#c, raw);
  }
}
