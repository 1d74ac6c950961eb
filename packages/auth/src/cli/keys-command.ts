import { KEY_EXPIRATION_HEADER } from '../adapter/key-expiration-header.js';
import { isApiKeyFormat, isKeyId } from '../api-key/api-key-format.js';
import { KEY_ROUTES, keyRoutePath, keyRouteText } from '../key-routes/key-route-table.js';
import type { CliIo } from './cli-io.js';
import { KEYS_HELP } from './help-text.js';
import { parseCommandArgs } from './parse-command-args.js';
import { printable } from './printable.js';
import { serverEndpointFrom } from './revocation-endpoint.js';
import { UsageError } from './usage-error.js';

/** The environment variable `keys` reads the credential from (never an argument: shell history). */
export const CREDENTIAL_ENV = 'DROPS_API_KEY';

interface ListedKey {
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

/** `never`, `expired 2026-11-20T10:00:00.000Z`, `expires 2026-12-01T00:00:00.000Z (in 3 days)`. */
export function expiryOf(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return 'never expires';
  const left = Date.parse(expiresAt) - now;
  if (Number.isNaN(left)) return `expires ${printable(expiresAt)}`;
  if (left <= 0) return `expired ${printable(expiresAt)}`;
  const days = Math.round(left / 86_400_000);
  const hours = Math.round(left / 3_600_000);
  const within =
    left >= 86_400_000
      ? `${days} day${days === 1 ? '' : 's'}`
      : left >= 3_600_000
        ? `${hours} hour${hours === 1 ? '' : 's'}`
        : 'less than an hour';
  return `expires ${printable(expiresAt)} (in ${within})`;
}

/**
 * The `Drops-Key-Expiration` warning, on stderr, when the server put it on its answer: the key
 * that authenticated the request expires within 7 days.
 */
export function warnKeyExpiration(headers: Headers, io: CliIo, command: string): void {
  const at = headers.get(KEY_EXPIRATION_HEADER);
  if (at === null) return;
  io.stderr.write(
    `drops-auth ${command}: warning: the key in ${CREDENTIAL_ENV} expires at ${printable(at)} (Drops-Key-Expiration). ` +
      `Roll it (${keyRouteText('roll')}, or Roll in the dashboard) and switch to the new key before then.\n`,
  );
}

function credentialOf(env: NodeJS.ProcessEnv): string {
  const credential = env[CREDENTIAL_ENV]?.trim() ?? '';
  if (credential === '') throw new UsageError(`set ${CREDENTIAL_ENV} to an API key or an ID token of the account`);
  return credential;
}

/** The server's `{error}`, printable, after a colon; or nothing. */
function errorOf(body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? `: ${printable(error)}` : '';
}

/**
 * `drops-auth keys roll <id> --url <base> [--grace <seconds>] [--json]` with an ID token in
 * `DROPS_API_KEY` (a roll mints; an API key gets the 401): prints the new key's secret, the only
 * secret the CLI ever prints (it minted it), alone on stdout so it can be captured; or with
 * `--json` the server's answer. What happened goes to stderr. Resolves 0 rolled, 3 refused.
 */
async function rollKey(
  rest: readonly string[],
  options: Readonly<Record<string, string | undefined>>,
  json: boolean,
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const [id, ...extra] = rest;
  if (id === undefined || extra.length > 0 || !isKeyId(id))
    throw new UsageError('keys roll takes one key id (64 lowercase hex characters)');
  const grace = options['grace'];
  if (grace !== undefined && !/^\d{1,7}$/.test(grace)) throw new UsageError('--grace is a whole number of seconds (at most 604800)');
  const endpoint = serverEndpointFrom(options['url'], env, keyRoutePath('roll', id));
  const credential = credentialOf(env);
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: KEY_ROUTES.roll.method,
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', accept: 'application/json' },
      body: grace === undefined ? '{}' : JSON.stringify({ graceSeconds: Number(grace) }),
      redirect: 'manual',
    });
  } catch {
    io.stderr.write(`drops-auth keys roll: ${endpoint.href} could not be reached.\n`);
    return 3;
  }
  const body: unknown = await res.json().catch(() => null);
  const rolled = body as { apiKey?: unknown; id?: unknown; prefix?: unknown; replaces?: unknown } | null;
  if (res.status !== 201 || typeof rolled?.apiKey !== 'string' || !isApiKeyFormat(rolled.apiKey)) {
    const hint = res.status === 401 ? ` (a roll mints: ${CREDENTIAL_ENV} must hold an ID token, not an API key)` : '';
    io.stderr.write(`drops-auth keys roll: ${endpoint.href} answered ${res.status}${errorOf(body)}${hint}\n`);
    return 3;
  }
  io.stdout.write(json ? `${JSON.stringify(body)}\n` : `${rolled.apiKey}\n`);
  io.stderr.write(
    `drops-auth keys roll: new key ${printable(String(rolled.prefix))} id ${printable(String(rolled.id))} replaces ${id}; ` +
      `the old key keeps working for ${grace ?? "the server's default grace (a day)"}${grace === undefined ? '' : ' seconds'}. ` +
      'Store the new key now: it cannot be shown again.\n',
  );
  return 0;
}

/**
 * `drops-auth keys revoke <id> --url <base>` with the account's credential in `DROPS_API_KEY`
 * (an API key or an ID token): `DELETE <base>/keys/<id>`. Resolves 0 revoked (the server's 204:
 * no instance accepts the key any more), 3 refused (404: no active key of the account with that
 * id) or unreachable.
 */
async function revokeKey(rest: readonly string[], url: string | undefined, io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const [id, ...extra] = rest;
  if (id === undefined || extra.length > 0 || !isKeyId(id))
    throw new UsageError('keys revoke takes one key id (64 lowercase hex characters)');
  const endpoint = serverEndpointFrom(url, env, keyRoutePath('revoke', id));
  const credential = credentialOf(env);
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${credential}`, accept: 'application/json' },
      redirect: 'manual',
    });
  } catch {
    io.stderr.write(`drops-auth keys revoke: ${endpoint.href} could not be reached.\n`);
    return 3;
  }
  warnKeyExpiration(res.headers, io, 'keys revoke');
  if (res.status !== 204) {
    const body: unknown = await res.json().catch(() => null);
    io.stderr.write(`drops-auth keys revoke: ${endpoint.href} answered ${res.status}${errorOf(body)}\n`);
    return 3;
  }
  io.stderr.write(`drops-auth keys revoke: key ${id} revoked; no request with it is accepted any more.\n`);
  return 0;
}

function readKeys(body: unknown): ListedKey[] | null {
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return null;
  return keys.every((k) => typeof (k as ListedKey)?.id === 'string' && typeof (k as ListedKey).prefix === 'string')
    ? (keys as ListedKey[])
    : null;
}

function lineOf(key: ListedKey, now: number): string {
  const name = typeof key.name === 'string' ? printable(key.name) : '(unnamed)';
  return `${printable(key.prefix)}  ${name}  id ${printable(key.id)}  ${expiryOf(typeof key.expiresAt === 'string' ? key.expiresAt : null, now)}\n`;
}

/**
 * `drops-auth keys --url <base> [--json]`: lists the account's keys (`GET <base>/keys`) with the
 * credential in `DROPS_API_KEY` (an API key or an ID token): prefix, name, id and expiry, never a
 * secret. Warns on stderr when the answer carries `Drops-Key-Expiration`. Resolves 0 listed, 3
 * refused or unreachable; throws `UsageError` (exit 2) for bad arguments or no credential.
 */
export async function keysCommand(args: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseCommandArgs(args, KEYS_HELP, io, ['url', 'grace']);
  if (parsed === null) return 0;
  const { json, options, positionals } = parsed;
  if (positionals[0] === 'roll') return rollKey(positionals.slice(1), options, json, io, env);
  if (positionals[0] === 'revoke') {
    if (options['grace'] !== undefined) throw new UsageError('--grace is an option of keys roll');
    return revokeKey(positionals.slice(1), options['url'], io, env);
  }
  if (positionals.length > 0) {
    throw new UsageError(
      `keys takes no arguments but roll <id> or revoke <id>; the credential is read from ${CREDENTIAL_ENV}, never from the command line`,
    );
  }
  if (options['grace'] !== undefined) throw new UsageError('--grace is an option of keys roll');
  const endpoint = serverEndpointFrom(options['url'], env, keyRoutePath('list'));
  const credential = credentialOf(env);

  let res: Response;
  try {
    res = await fetch(endpoint, { headers: { authorization: `Bearer ${credential}`, accept: 'application/json' }, redirect: 'manual' });
  } catch {
    io.stderr.write(`drops-auth keys: ${endpoint.href} could not be reached.\n`);
    return 3;
  }
  warnKeyExpiration(res.headers, io, 'keys');
  const body: unknown = await res.json().catch(() => null);
  if (res.status !== 200) {
    const error =
      typeof (body as { error?: unknown } | null)?.error === 'string' ? `: ${printable((body as { error: string }).error)}` : '';
    io.stderr.write(`drops-auth keys: ${endpoint.href} answered ${res.status}${error}\n`);
    return 3;
  }
  const keys = readKeys(body);
  if (keys === null) {
    io.stderr.write(`drops-auth keys: ${endpoint.href} did not answer {"keys": [...]}.\n`);
    return 3;
  }
  const now = Date.now();
  for (const key of keys) {
    io.stdout.write(
      json
        ? `${printable(JSON.stringify({ id: key.id, prefix: key.prefix, name: key.name ?? null, createdAt: key.createdAt, expiresAt: key.expiresAt ?? null }))}\n`
        : lineOf(key, now),
    );
  }
  io.stderr.write(`drops-auth keys: ${keys.length} active key${keys.length === 1 ? '' : 's'}.\n`);
  return 0;
}
