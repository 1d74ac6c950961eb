import { createGitHubSecretScanning } from '@drops/auth';
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseDropsOrigin } from './user-content/drops-origin.js';

/** The parsers the settings table (settings.ts) is written with: each takes a variable's text. */

export const MiB = 1024 * 1024;

/** A whole number from `min` to `max`. */
export const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A whole number of seconds from `min` to `max`, as milliseconds. */
export const secondsAsMs = (min: number, max: number) => integer(min, max).transform((s) => s * 1000);

/** `on` or `off`. */
export const onOff = () => z.enum(['on', 'off']);

/** A whole number of `unit`s from 1 to `max` (`maxText` says what `max` is), for a limit that is off when unset. */
export function optionalLimit(unit: 'second' | 'day', example: number, max: number, maxText: string) {
  return z
    .string()
    .regex(/^\d+$/, `must be a whole number of ${unit}s, such as ${example} (unset: no limit)`)
    .transform(Number)
    .pipe(z.number().min(1, `must be at least 1 ${unit} (unset it for no limit)`).max(max, `must be at most ${max} (${maxText})`));
}

/** Longest `mintMaxAuthAgeSeconds`: a year. */
export const MAX_AUTH_AGE_SECONDS = 365 * 24 * 3600;

/** A comma list of at most 20 delays in whole seconds, each at most a week. */
export const retryDelays = () =>
  z
    .string()
    .regex(/^\d+(,\d+){0,19}$/, 'must be a comma list of at most 20 whole numbers of seconds, such as 5,300,1800')
    .transform((v) => v.split(',').map(Number))
    .pipe(z.array(z.number().max(604_800, 'each delay must be at most 604800 seconds (a week)')));

/** A comma list of audiences, at least one. */
export const audiences = () =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a.length > 0),
    )
    .refine((list) => list.length > 0, 'must name at least one audience');

/** The separate origin drop content is served on (user-content/drops-origin.ts). */
export const dropsOrigin = () =>
  z.string().transform((value, ctx) => {
    const origin = parseDropsOrigin(value);
    if (typeof origin !== 'string') return origin;
    ctx.addIssue({ code: 'custom', message: origin });
    return z.NEVER;
  });

// The secret scanning key list decides which alerts revoke keys: fetched over HTTPS, as a JWKS is.
// Asked of the library itself (it fetches nothing until the first alert), so start-up refuses
// exactly what it would refuse.
export const secretScanningKeysUrl = () =>
  z.string().refine(isAllowedKeysUrl, 'must be an https: URL (plain http: only for 127.0.0.0/8, localhost or [::1], for tests)');

function isAllowedKeysUrl(value: string): boolean {
  try {
    createGitHubSecretScanning({ keysUrl: value });
    return true;
  } catch {
    return false;
  }
}

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

// A hop count, or a comma list of proxies (addresses, CIDR subnets, or proxy-addr's names):
// what Express's `trust proxy` (proxy-addr) believes. `true` would believe any X-Forwarded-For,
// so a client could pick its own address (and rate-limit bucket): refused.
export const trustProxy = () => z.string().transform((v, ctx) => trustProxyOf(v, ctx));

function trustProxyOf(value: string, ctx: z.RefinementCtx): false | number | string {
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.every(isTrustedProxyEntry)) return entries.join(', ');
  ctx.addIssue({
    code: 'custom',
    message:
      'must be a hop count (such as 1) or a comma list of proxy addresses or subnets (such as 10.0.0.0/8, ::1, loopback); ' +
      '"true" is refused: it would believe any X-Forwarded-For',
  });
  return z.NEVER;
}

function isTrustedProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address, range, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4; // a netmask
}
