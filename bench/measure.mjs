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

/** How far under its last low a warm-up round's CPU per request must fall for the route to count as still warming. */
const WARMING_GAIN = 0.05;
/** Warm-up rounds in a row without such a fall after which a route counts as warm. */
const WARM_AFTER = 3;
/** Warm-up rounds at most for one route. */
const WARMUP_MAX_ROUNDS = 20;
/** The length of one warm-up round, in whole seconds (wrk's `-d`). */
const WARMUP_ROUND_SECONDS = 1;

/** The rule of {@link warmUp}, for the benches' table notes. */
export const WARMUP_RULE = `each route first loaded in rounds of ${WARMUP_ROUND_SECONDS} s until its CPU per request stopped falling (${WARM_AFTER} rounds in a row not ${WARMING_GAIN * 100}% under its last low; at most ${WARMUP_MAX_ROUNDS})`;

/**
 * Loads a route before any of its rounds count, until its CPU per request stops falling:
 * `measure(route, seconds)` (resolving `{ rate, cpu }`) in rounds of WARMUP_ROUND_SECONDS until
 * WARM_AFTER rounds in a row fail to come WARMING_GAIN under the last low, at most
 * WARMUP_MAX_ROUNDS. A server's code is compiled while it serves: the reference server took 12–18 s
 * of load to settle, a bare Express route 4 (bench/METHOD.md, "Idle processes"), so a fixed
 * warm-up measures the larger program earlier on its curve. A machine that slows for a round only
 * counts as settled.
 * @returns {Promise<{ rounds: number, cpu: number }>} the rounds it took and the last low
 */
export async function warmUp(route, measure) {
  let low = Number.POSITIVE_INFINITY;
  let flat = 0;
  let rounds = 0;
  while (flat < WARM_AFTER && rounds < WARMUP_MAX_ROUNDS) {
    rounds++;
    const { cpu } = await measure(route, WARMUP_ROUND_SECONDS);
    if (cpu < low * (1 - WARMING_GAIN)) {
      low = cpu;
      flat = 0;
    } else flat++;
  }
  return { rounds, cpu: low };
}

/** A paired row's series, filled by {@link pairedRound}. */
export const pairedSeries = () => ({
  rates: [],
  cpus: [],
  baseRates: [],
  baseCpus: [],
  rateRatios: [],
  cpuRatios: [],
  remeasured: 0,
  unsteady: 0,
});

/** How far a bracket's two base rounds may differ (CPU per request or requests/s) for its round to count. */
const STEADY_DRIFT = 0.1;
/** Brackets measured at most for one round before the steadiest is kept. */
const BRACKET_TRIES = 3;

/** The rule of {@link pairedRound}, for the benches' table notes. */
export const BRACKET_RULE = `after one uncounted round of each of the two routes; the bracket measured again, up to ${BRACKET_TRIES} times, when its two bare rounds differ by more than ${STEADY_DRIFT * 100}%`;

/** What a round {@link pairedRound} returned says of its bracket, for the benches' verbose lines. */
export const bracketOf = ({ drift, brackets }) =>
  `its two rounds ${(drift * 100).toFixed(0)}% apart${brackets > 1 ? `, bracket ${brackets}` : ''}`;

/** How far apart two rounds of one route are: the larger of their CPU and rate differences, relative. */
const driftOf = (a, b) => Math.max(Math.abs(a.cpu - b.cpu) / Math.min(a.cpu, b.cpu), Math.abs(a.rate - b.rate) / Math.min(a.rate, b.rate));

/**
 * One paired round of an HTTP bench: `measure(route)` (resolving `{ rate, cpu }`) of `base`, `mine`
 * and `base` again, one right after the other, after one uncounted round of each: a server process
 * that idled while the others were measured has had compiled code thrown away by V8's garbage
 * collector, and pays to compile it again in its first round (bench/METHOD.md, "Idle processes").
 * On these virtual machines a route's CPU per request can double for seconds at a time and come
 * back (bench/METHOD.md, "Bracketed rounds"): when the two base rounds differ by more than
 * STEADY_DRIFT, the machine changed during the bracket, and the bracket is measured again (at most
 * BRACKET_TRIES times in all; the steadiest is kept). The round keeps mine against the mean of its
 * two base rounds, in `series` (see {@link pairedSeries}): requests/s mine / base, CPU per request
 * base / mine. The check can only discard a bracket whose base moved, never one because mine was
 * slow.
 * @returns {Promise<{ mine: { rate: number, cpu: number }, base: { rate: number, cpu: number }, drift: number, brackets: number }>}
 */
export async function pairedRound(series, { mine, base }, measure) {
  await measure(mine);
  await measure(base);
  let kept;
  let brackets = 0;
  while (brackets < BRACKET_TRIES) {
    brackets++;
    const before = await measure(base);
    const m = await measure(mine);
    const after = await measure(base);
    const drift = driftOf(before, after);
    if (kept === undefined || drift < kept.drift) {
      kept = { mine: m, base: { rate: (before.rate + after.rate) / 2, cpu: (before.cpu + after.cpu) / 2 }, drift };
    }
    if (drift <= STEADY_DRIFT) break;
  }
  series.remeasured += brackets - 1;
  if (kept.drift > STEADY_DRIFT) series.unsteady += 1;
  series.rates.push(kept.mine.rate);
  series.cpus.push(kept.mine.cpu);
  series.baseRates.push(kept.base.rate);
  series.baseCpus.push(kept.base.cpu);
  series.rateRatios.push(kept.mine.rate / kept.base.rate);
  series.cpuRatios.push(kept.base.cpu / kept.mine.cpu);
  return { ...kept, brackets };
}

/**
 * The two table rows of a series {@link pairedRound} filled: requests/s, and server CPU per request
 * (group `<group>, server CPU per request`). Each shows the contender's median, its pair's median,
 * the interquartile range of the paired ratios and how many brackets were measured again (and how
 * many rounds kept an unsteady one), and takes the median paired ratio as its ratio.
 */
export function pairedRows(group, name, series) {
  const iqr = (values) => `${quantile(values, 0.25).toFixed(2)}–${quantile(values, 0.75).toFixed(2)}`;
  const unsteady = series.unsteady > 0 ? `, ${series.unsteady} unsteady` : '';
  const again = series.remeasured > 0 ? `; ${series.remeasured} remeasured${unsteady}` : '';
  const rate = quantile(series.rates, 0.5);
  const cpu = quantile(series.cpus, 0.5);
  return {
    rate: {
      group,
      name,
      opsPerSec: rate,
      display: `${(rate / 1e3).toFixed(1)} k req/s (bare ${(quantile(series.baseRates, 0.5) / 1e3).toFixed(1)} k; ratio ${iqr(series.rateRatios)}${again})`,
      ratio: pairedSummary(series.rateRatios).median,
    },
    cpu: {
      group: `${group}, server CPU per request`,
      name,
      opsPerSec: 1e6 / cpu,
      display: `${cpu.toFixed(1)} µs CPU/req (bare ${quantile(series.baseCpus, 0.5).toFixed(1)}; ratio ${iqr(series.cpuRatios)}${again})`,
      ratio: pairedSummary(series.cpuRatios).median,
    },
  };
}
