// What every comparison shares: the two versions, and the list of changes found so far. Changes
// are recorded with a symbol to locate; lines are looked up once at the end.
import type { IrSpec, IrType } from '../../generator/ir/model.js';
import type { SpecVersion } from '../input.js';
import type { Change } from '../model.js';
import { rule, type RuleId } from '../rules.js';
import { pairByNames, type Pairing } from './shapes.js';

export type Side = 'base' | 'head';

export interface Found {
  readonly rule: RuleId;
  readonly path: string;
  readonly side: Side;
  readonly file: string;
  /** Name chain inside the file, e.g. ['BookingResponse', 'CreatedDate']. */
  readonly symbol: readonly string[];
  readonly message: string;
  readonly operations: Iterable<string>;
}

export class DiffContext {
  readonly #found = new Map<string, { f: Found; ops: Set<string> }>();
  /** Complex types of the base and the head type each continues as (see pairByNames). */
  readonly types: Pairing<IrType>;

  constructor(
    readonly base: SpecVersion,
    readonly head: SpecVersion,
  ) {
    this.types = pairByNames(base.ir.types, head.ir.types);
  }

  /** Whether head type `head` is base type `base`, maybe under another TypeScript name. */
  readonly continues = (base: string, head: string): boolean =>
    this.types.pairs.some(([b, h]) => b.name === base && h.name === head);

  get baseIr(): IrSpec {
    return this.base.ir;
  }

  get headIr(): IrSpec {
    return this.head.ir;
  }

  /** One change per rule and path: an inherited field reached through several types is one change. */
  add(f: Found): void {
    const key = `${f.rule} ${f.path}`;
    const hit = this.#found.get(key);
    if (hit) for (const o of f.operations) hit.ops.add(o);
    else this.#found.set(key, { f, ops: new Set(f.operations) });
  }

  async changes(): Promise<Change[]> {
    const out: Change[] = [];
    for (const { f, ops } of this.#found.values()) {
      const version = f.side === 'base' ? this.base : this.head;
      out.push({
        rule: f.rule,
        severities: rule(f.rule).severities,
        path: f.path,
        location: {
          file: version.display(f.file),
          line: await version.locator.line(f.file, f.symbol),
        },
        message: f.message,
        operations: [...ops].sort(),
      });
    }
    return out;
  }
}
