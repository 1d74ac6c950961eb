/** Standard normal CDF (Abramowitz-Stegun 7.1.26 for erf). */
function phi(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** What {@link mannWhitney} finds. */
export interface MannWhitney {
  /** Two-sided p (normal approximation, ties corrected). */
  readonly p: number;
  /** P(a > b) + P(a = b) / 2: 0.5 when neither tends to be larger. */
  readonly superiority: number;
}

/**
 * The Mann-Whitney U test of `a` against `b`, as bench/timing.bench.mjs runs it for the 401s: does
 * one sample tend to be larger than the other? Distribution-free, so a few slow outliers (GC, a
 * busy neighbour) do not decide it.
 */
export function mannWhitney(a: readonly number[], b: readonly number[]): MannWhitney {
  const all = [...a.map((v) => [v, 0] as const), ...b.map((v) => [v, 1] as const)].sort((x, y) => x[0] - y[0]);
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]![0] === all[i]![0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k]![1] === 0) rankSumA += rank;
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const n = n1 + n2;
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = (u - (n1 * n2) / 2) / sigma;
  return { p: 2 * (1 - phi(Math.abs(z))), superiority: u / (n1 * n2) };
}
