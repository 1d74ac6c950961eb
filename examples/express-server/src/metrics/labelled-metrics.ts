import type { Metric, Registry } from 'prom-client';

/**
 * Counters and histograms cheap enough for every request. prom-client's own `inc()` and
 * `observe()` hash their label object on every call (0.5 to 1.5 µs each, measured in bench/METHOD.md);
 * here a series is found by its label values (one `Map` lookup per label, no key built) and
 * kept, and an observation is a few adds.
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

/**
 * A label value: numbers (an HTTP status) are written as their decimal text. Pass each label as
 * the same type every time: `200` and `'200'` would be two series with the same labels.
 */
export type LabelValue = string | number;

type SeriesTree = Map<LabelValue, unknown>;

abstract class LabelledMetric<Series> {
  readonly aggregator = 'sum';
  /** Series by their label values, one `Map` level per label: found without building a key. */
  readonly #tree: SeriesTree = new Map();
  readonly #all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {
    if (labelNames.length < 1 || labelNames.length > 3) throw new TypeError(`${name}: 1 to 3 labels`);
  }

  /** The series for these label values (in `labelNames` order), made on first use. */
  series(first: LabelValue, second?: LabelValue, third?: LabelValue): Series {
    const depth = this.labelNames.length;
    let node = this.#tree.get(first);
    if (depth > 1) node = (node as SeriesTree | undefined)?.get(second!);
    if (depth > 2) node = (node as SeriesTree | undefined)?.get(third!);
    return (node as Series | undefined) ?? this.#add([first, second, third].slice(0, depth) as LabelValue[]);
  }

  #add(values: LabelValue[]): Series {
    if (values.some((v) => v === undefined)) throw new TypeError(`${this.name}: expected ${this.labelNames.length} label values`);
    const labels: Record<string, string> = {};
    for (const [i, name] of this.labelNames.entries()) labels[name] = String(values[i]);
    const series = this.create(labels);
    let level = this.#tree;
    for (const value of values.slice(0, -1)) {
      let next = level.get(value) as SeriesTree | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    level.set(values.at(-1)!, series);
    this.#all.push(series);
    return series;
  }

  protected abstract create(labels: Record<string, string>): Series;

  protected all(): readonly Series[] {
    return this.#all;
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
    const values = this.all().map((s) => ({ value: s.value, labels: s.labels }));
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
