// Every request counted in plain tables on the request loop, read by the metrics when scraped.
// prom-client hashes and checks a label set at each inc() and observe(), even on a kept child: a
// sizeable part of a small call's bookkeeping. Here a request is three lookups and a few
// additions; the label values are fixed lists (the spec's tables), so the tables are too.

/** The labels of a counted request (a type, not an interface: it is a record of labels). */
export type RequestLabels = {
  readonly operation: string;
  readonly binding: string;
  readonly outcome: string;
};

/** The label values counted; anything else is counted under `other`, which each list includes. */
export interface RequestLabelValues {
  readonly operations: readonly string[];
  readonly bindings: readonly string[];
  readonly outcomes: readonly string[];
  readonly other: string;
}

/** One operation's latencies: requests at or under each bound (cumulative), their count and sum. */
export interface Latencies {
  readonly operation: string;
  readonly atOrUnder: readonly number[];
  readonly count: number;
  readonly sum: number;
}

/** Position of each value in `values`, `other`'s for any value not among them. */
function indexOf(values: readonly string[], other: string): (value: string | undefined) => number {
  const at = new Map(values.map((v, i) => [v, i]));
  const fallback = at.get(other);
  if (fallback === undefined) throw new RangeError(`the label values lack "${other}"`);
  return (value) => (value === undefined ? fallback : (at.get(value) ?? fallback));
}

export class RequestTables {
  readonly #values: RequestLabelValues;
  readonly #bounds: readonly number[];
  readonly #operation;
  readonly #binding;
  readonly #outcome;
  /** Requests by operation, binding and outcome (row-major). */
  readonly #counts: Float64Array;
  /** Per operation, requests in each bucket (not cumulative): one per bound, then one past all. */
  readonly #buckets: Float64Array;
  readonly #sums: Float64Array;
  /** Cells of #counts, and operations, in the order of their first request (prom-client's order). */
  readonly #countedCells: number[] = [];
  readonly #timedOperations: number[] = [];
  readonly #timed: Uint8Array;

  /** `bounds`: latency bucket bounds, ascending, in the unit of the latencies counted. */
  constructor(values: RequestLabelValues, bounds: readonly number[]) {
    this.#values = values;
    this.#bounds = bounds;
    this.#operation = indexOf(values.operations, values.other);
    this.#binding = indexOf(values.bindings, values.other);
    this.#outcome = indexOf(values.outcomes, values.other);
    const { operations, bindings, outcomes } = values;
    this.#counts = new Float64Array(operations.length * bindings.length * outcomes.length);
    this.#buckets = new Float64Array(operations.length * (bounds.length + 1));
    this.#sums = new Float64Array(operations.length);
    this.#timed = new Uint8Array(operations.length);
  }

  /** Counts a request: its labels (undefined or unknown: `other`) and its latency. */
  count(
    operation: string | undefined,
    binding: string | undefined,
    outcome: string | undefined,
    latency: number,
  ): void {
    const op = this.#operation(operation);
    const { bindings, outcomes } = this.#values;
    const cell =
      (op * bindings.length + this.#binding(binding)) * outcomes.length + this.#outcome(outcome);
    if (this.#counts[cell]! === 0) this.#countedCells.push(cell);
    this.#counts[cell]! += 1;
    if (this.#timed[op] === 0) {
      this.#timed[op] = 1;
      this.#timedOperations.push(op);
    }
    const bounds = this.#bounds;
    let b = 0;
    while (b < bounds.length && latency > bounds[b]!) b++;
    this.#buckets[op * (bounds.length + 1) + b]! += 1;
    this.#sums[op]! += latency;
  }

  /** The label sets counted so far and their totals, in the order of their first request. */
  *requests(): Generator<[RequestLabels, number]> {
    const { operations, bindings, outcomes } = this.#values;
    for (const cell of this.#countedCells) {
      const outcome = outcomes[cell % outcomes.length]!;
      const rest = Math.floor(cell / outcomes.length);
      const labels = {
        operation: operations[Math.floor(rest / bindings.length)]!,
        binding: bindings[rest % bindings.length]!,
        outcome,
      };
      yield [labels, this.#counts[cell]!];
    }
  }

  /** The latencies of each operation counted so far, in the order of their first request. */
  *latencies(): Generator<Latencies> {
    const width = this.#bounds.length + 1;
    for (const op of this.#timedOperations) {
      const atOrUnder: number[] = [];
      let count = 0;
      for (let b = 0; b < width; b++) {
        count += this.#buckets[op * width + b]!;
        if (b < width - 1) atOrUnder.push(count);
      }
      yield { operation: this.#values.operations[op]!, atOrUnder, count, sum: this.#sums[op]! };
    }
  }
}
