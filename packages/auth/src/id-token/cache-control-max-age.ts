/**
 * The freshness lifetime a response grants, in milliseconds: `max-age` of
 * `Cache-Control` less the `Age` header. `undefined` when the response says nothing; `0` for
 * `no-cache` / `no-store`.
 */
export function cacheControlMaxAgeMs(cacheControl: string | null, age: string | null): number | undefined {
  if (cacheControl === null) return undefined;
  let maxAge: number | undefined;
  for (const directive of cacheControl.toLowerCase().split(',')) {
    const [name = '', value] = directive.trim().split('=', 2);
    if (name === 'no-store' || name === 'no-cache') return 0;
    if (name === 'max-age' && value !== undefined) {
      const seconds = Number(value.trim().replace(/^"|"$/g, ''));
      if (Number.isInteger(seconds) && seconds >= 0) maxAge = seconds;
    }
  }
  if (maxAge === undefined) return undefined;
  const ageSeconds = age === null ? 0 : Number(age);
  const fresh = maxAge - (Number.isInteger(ageSeconds) && ageSeconds > 0 ? ageSeconds : 0);
  return Math.max(0, fresh) * 1000;
}
