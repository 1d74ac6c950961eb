/**
 * Throughput measurement shared by the benchmarks: run an operation for a bounded time after a
 * warm-up, one at a time or with N in flight, and report operations per second.
 */
import { performance } from 'node:perf_hooks';

/** Runs `fn` (sync) in a tight loop for `ms`; returns ops/s. */
export function syncOpsPerSec(fn, { ms = 1500, warmupMs = 300 } = {}) {
  const loop = (budget) => {
    let n = 0;
    const start = performance.now();
    let now = start;
    while (now - start < budget) {
      for (let i = 0; i < 256; i++) fn(i);
      n += 256;
      now = performance.now();
    }
    return (n * 1000) / (now - start);
  };
  loop(warmupMs);
  return loop(ms);
}

/** Runs async `fn` with `concurrency` calls in flight for `ms` (after `warmupMs`, when not 0); returns ops/s. */
export async function asyncOpsPerSec(fn, { ms = 1500, warmupMs = 300, concurrency = 1 } = {}) {
  const run = async (budget) => {
    let n = 0;
    const start = performance.now();
    const deadline = start + budget;
    const worker = async () => {
      while (performance.now() < deadline) {
        for (let i = 0; i < 16; i++) await fn(n + i);
        n += 16;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return (n * 1000) / (performance.now() - start);
  };
  if (warmupMs > 0) await run(warmupMs);
  return run(ms);
}

export const fmt = (opsPerSec) => (opsPerSec >= 1e6 ? `${(opsPerSec / 1e6).toFixed(2)} M/s` : `${(opsPerSec / 1e3).toFixed(1)} k/s`);

/**
 * Measures several contenders in interleaved rounds (A B C, A B C, …) and keeps each one's best
 * round, so a neighbour's burst of load on a shared machine skews no single contender.
 * `contenders` maps a name to `() => Promise<number>` (one measurement, ops/s).
 */
export async function interleaved(contenders, rounds = 5) {
  const best = Object.fromEntries(Object.keys(contenders).map((k) => [k, 0]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, measure] of Object.entries(contenders)) {
      best[name] = Math.max(best[name], await measure());
    }
  }
  return best;
}

/** The `q` quantile (0 to 1) of `values`, interpolated between the two nearest samples. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  return sorted[below] + (sorted[Math.min(below + 1, sorted.length - 1)] - sorted[below]) * (at - below);
}

/**
 * Median and interquartile range of paired ratios: `ratios[i]` divides a contender's round by the
 * floor's round next to it, so load that comes and goes across the run cancels out of each pair.
 */
export function pairedSummary(ratios) {
  return { median: quantile(ratios, 0.5), q1: quantile(ratios, 0.25), q3: quantile(ratios, 0.75) };
}

/** A paired row's series, filled by {@link pairedRound}. */
export const pairedSeries = () => ({ rates: [], cpus: [], baseRates: [], baseCpus: [], rateRatios: [], cpuRatios: [] });

/**
 * One paired round of an HTTP bench: `measure(route)` (resolving `{ rate, cpu }`) of `mine` and of
 * `base`, one right after the other (`base` first when `baseFirst`), kept in `series` (see
 * {@link pairedSeries}) with their ratios: requests/s mine / base, CPU per request base / mine.
 * @returns {Promise<{ mine: { rate: number, cpu: number }, base: { rate: number, cpu: number } }>}
 */
export async function pairedRound(series, { mine, base }, baseFirst, measure) {
  const one = await measure(baseFirst ? base : mine);
  const two = await measure(baseFirst ? mine : base);
  const [m, b] = baseFirst ? [two, one] : [one, two];
  series.rates.push(m.rate);
  series.cpus.push(m.cpu);
  series.baseRates.push(b.rate);
  series.baseCpus.push(b.cpu);
  series.rateRatios.push(m.rate / b.rate);
  series.cpuRatios.push(b.cpu / m.cpu);
  return { mine: m, base: b };
}

/**
 * The two table rows of a series {@link pairedRound} filled: requests/s, and server CPU per request
 * (group `<group>, server CPU per request`). Each shows the contender's median, its pair's median
 * and the interquartile range of the paired ratios, and takes the median paired ratio as its ratio.
 */
export function pairedRows(group, name, series) {
  const iqr = (values) => `${quantile(values, 0.25).toFixed(2)}–${quantile(values, 0.75).toFixed(2)}`;
  const rate = quantile(series.rates, 0.5);
  const cpu = quantile(series.cpus, 0.5);
  return {
    rate: {
      group,
      name,
      opsPerSec: rate,
      display: `${(rate / 1e3).toFixed(1)} k req/s (bare ${(quantile(series.baseRates, 0.5) / 1e3).toFixed(1)} k; ratio ${iqr(series.rateRatios)})`,
      ratio: pairedSummary(series.rateRatios).median,
    },
    cpu: {
      group: `${group}, server CPU per request`,
      name,
      opsPerSec: 1e6 / cpu,
      display: `${cpu.toFixed(1)} µs CPU/req (bare ${quantile(series.baseCpus, 0.5).toFixed(1)}; ratio ${iqr(series.cpuRatios)})`,
      ratio: pairedSummary(series.cpuRatios).median,
    },
  };
}
