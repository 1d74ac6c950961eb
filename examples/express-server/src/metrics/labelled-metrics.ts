import type { Metric, Registry } from 'prom-client';

/**
 * Counters and histograms cheap enough for every request. prom-client's own `inc()` and
 * `observe()` hash their label object on every call (0.5 to 1.5 µs each, measured in bench/METHOD.md);
 * here a series is found by its label values once and kept, and an observation is a few adds.
 * They register in a prom-client `Registry` like its own metrics (same `get()` shape), so the
 * text format, the default process metrics and the content type all stay prom-client's.
 */
interface MetricSnapshot {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Array<{ value: number; labels: Record<string, string | number>; metricName?: string }>;
}

abstract class LabelledMetric<Series> {
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  /** The series for these label values (in `labelNames` order), made on first use. */
  series(...values: string[]): Series {
    const key = values.length === 1 ? values[0]! : values.join('\u0000');
    let found = this.#series.get(key);
    if (found === undefined) {
      if (values.length !== this.labelNames.length) throw new TypeError(`${this.name}: expected ${this.labelNames.length} label values`);
      const labels: Record<string, string> = {};
      for (const [i, name] of this.labelNames.entries()) labels[name] = values[i]!;
      found = this.create(labels);
      this.#series.set(key, found);
    }
    return found;
  }

  protected abstract create(labels: Record<string, string>): Series;

  protected all(): IterableIterator<Series> {
    return this.#series.values();
  }

  /** Registers this metric in `registry`, next to prom-client's own. */
  registerIn(registry: Registry): this {
    registry.registerMetric(this as unknown as Metric);
    return this;
  }
}

/** One counter series. */
export class CounterSeries {
  value = 0;
  constructor(readonly labels: Record<string, string>) {}
  inc(): void {
    this.value++;
  }
}

/** A Prometheus counter with labels. */
export class LabelledCounter extends LabelledMetric<CounterSeries> {
  readonly type = 'counter';

  protected create(labels: Record<string, string>): CounterSeries {
    return new CounterSeries(labels);
  }

  get(): Promise<MetricSnapshot> {
    const values = [...this.all()].map((s) => ({ value: s.value, labels: s.labels }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}

/** One histogram series: counts per bucket (not cumulative until exported), sum and count. */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Record<string, string>,
    readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1); // the last one is +Inf
  }

  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

/** A Prometheus histogram with labels; bucket upper bounds in ascending order. */
export class LabelledHistogram extends LabelledMetric<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  protected create(labels: Record<string, string>): HistogramSeries {
    return new HistogramSeries(labels, this.bounds);
  }

  get(): Promise<MetricSnapshot> {
    const values: MetricSnapshot['values'] = [];
    for (const s of this.all()) {
      let cumulative = 0;
      for (const [i, count] of s.counts.entries()) {
        cumulative += count;
        const le = i < this.bounds.length ? this.bounds[i]! : '+Inf';
        values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}
