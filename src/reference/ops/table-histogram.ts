// A prom-client histogram whose values come from the request tables (request-tables.ts) when
// scraped, not from observe(): prom-client's registry and its histogram's get() read a histogram
// through getForPromString(), answered here in the shape prom-client's own histogram gives it.
// request-metrics.test.ts holds the two to the same output.
import { Histogram, type HistogramConfiguration } from 'prom-client';
import type { Latencies } from './request-tables.js';

/** A sample of the histogram: its own labels (`le`) apart from the label set's. */
interface Sample {
  readonly labels: Record<string, string | number>;
  readonly sharedLabels: Record<string, string>;
  readonly value: number;
  readonly metricName: string;
  /** None: a bucket's is null, as prom-client's histogram without exemplars gives it. */
  readonly exemplar?: null;
}

export class TableHistogram extends Histogram<'operation'> {
  readonly #name: string;
  readonly #help: string;
  readonly #bounds: readonly number[];
  readonly #read: () => Iterable<Latencies>;

  constructor(config: HistogramConfiguration<'operation'>, read: () => Iterable<Latencies>) {
    super(config);
    this.#name = config.name;
    this.#help = config.help;
    this.#bounds = config.buckets ?? [];
    this.#read = read;
  }

  #samples(): Sample[] {
    const out: Sample[] = [];
    const bucket = `${this.#name}_bucket`;
    for (const l of this.#read()) {
      const sharedLabels = { operation: l.operation };
      const sample = (labels: Sample['labels'], value: number, metricName: string) =>
        out.push({ labels, sharedLabels, value, metricName });
      const inBucket = (le: number | string, value: number) =>
        out.push({ labels: { le }, sharedLabels, value, metricName: bucket, exemplar: null });
      this.#bounds.forEach((le, i) => inBucket(le, l.atOrUnder[i]!));
      inBucket('+Inf', l.count);
      sample({}, l.sum, `${this.#name}_sum`);
      sample({}, l.count, `${this.#name}_count`);
    }
    return out;
  }

  /**
   * The registry's reading, for the text format; get() (JSON) reads through it too and puts each
   * sample's labels and its label set's together.
   */
  getForPromString() {
    return Promise.resolve({
      name: this.#name,
      help: this.#help,
      type: 'histogram',
      values: this.#samples(),
      aggregator: 'sum',
    });
  }
}
