/**
 * The Mann-Whitney U test, the one copy that serves both bench/timing.bench.mjs (the 401s) and the
 * wire timing test of the reference server (examples/express-server, POST /credentials/revoke):
 * does one sample tend to be larger than the other? Distribution-free, so a few slow outliers (GC,
 * a busy neighbour) do not decide it. Plain JavaScript, so the bench runs it with no build; types
 * in mann-whitney.d.mts.
 */

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 for erf). */
function phi(z) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Mann-Whitney U of `a` against `b`: U, z, two-sided p (normal approximation, ties corrected), and P(a > b) + P(a = b)/2. */
export function mannWhitney(a, b) {
  const all = [...a.map((v) => [v, 0]), ...b.map((v) => [v, 1])].sort((x, y) => x[0] - y[0]);
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1][0] === all[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k][1] === 0) rankSumA += rank;
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
  return { u, z, p: 2 * (1 - phi(Math.abs(z))), superiority: u / (n1 * n2) };
}
