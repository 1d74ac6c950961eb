import { authFailureCases } from './auth-failure-cases.js';
import type { LocalIdentityProvider } from './local-identity-provider.js';
import { sendRawRequest, wireSnapshotOf, type RawResponse } from './raw-http.js';

/** A request line to send: method, path and an optional body. */
export type WireRoute = readonly [method: string, path: string, body?: string];

/** Where and what {@link uniform401WireSweep} sends. */
export interface Uniform401WireSweepInput {
  /** The server's base URL, e.g. `http://127.0.0.1:4000`. Its `/keys` routes mint with an ID token. */
  readonly url: string;
  /** The identity provider the server trusts. */
  readonly idp: LocalIdentityProvider;
  /** The app's own account routes (besides `/keys`), e.g. `[['GET', '/whoami']]`; the first is the reference answer. */
  readonly accountRoutes: readonly WireRoute[];
  /** Routes that take an ID token only (besides `POST /keys`), where an API key is the wrong credential type. */
  readonly idTokenOnlyRoutes?: readonly WireRoute[];
  /** A route that also serves anonymous callers (e.g. `['POST', '/deploy']`), where a bad credential is still the 401. */
  readonly optionalRoute?: WireRoute;
}

/** What the sweep read off the socket. */
export interface Uniform401WireSweep {
  /** The first account route without a credential: the answer every other one must equal. */
  readonly reference: RawResponse;
  /** `wireSnapshotOf(reference)`. */
  readonly expected: string;
  /** Every other failure, named by cause and route, as `wireSnapshotOf` its answer. */
  readonly answers: ReadonlyArray<readonly [what: string, wire: string]>;
}

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

/** The `/keys` requests every adapter serves, with a body or without, on a key that exists and one that cannot. */
function keyRoutes(liveKeyId: string): WireRoute[] {
  return [
    ['GET', '/keys'],
    ['POST', '/keys', '{"name":"x"}'],
    ['POST', '/keys', '{"name": '],
    ['DELETE', `/keys/${liveKeyId}`],
    ['DELETE', '/keys/abc'],
    ['PUT', '/keys'],
    ['GET', '/keys/a/b'],
  ];
}

/**
 * Sends every cause of the uniform 401 (missing, malformed, unknown, revoked, expired, bad
 * signature, duplicate header, and an API key where only an ID token is taken) to every account
 * route and every `/keys` route of a running server over raw sockets, and returns the answers as
 * wire snapshots (status line, header lines in order, body bytes; only per-request headers such as
 * `Date` left out) for the caller to compare with its own assertions. It mints two keys through
 * `POST /keys` with an ID token and revokes one, so the server's key routes must work.
 *
 * @example
 * ```ts
 * const sweep = await uniform401WireSweep({ url, idp, accountRoutes: [['GET', '/whoami']] });
 * for (const [what, wire] of sweep.answers) expect(wire, what).toBe(sweep.expected);
 * expect(await snapshotOf(sweep.reference)).toEqual(UNIFORM_401);
 * ```
 */
export async function uniform401WireSweep(input: Uniform401WireSweepInput): Promise<Uniform401WireSweep> {
  const { url, idp } = input;
  const token = idp.mintIdToken({ sub: 'uniform-401-wire' });
  const mint = async (): Promise<{ apiKey: string; id: string }> => {
    const res = await fetch(`${url}/keys`, { method: 'POST', headers: bearer(token) });
    if (res.status !== 201) throw new Error(`uniform401WireSweep: POST /keys with an ID token answered ${res.status}, not 201`);
    return (await res.json()) as { apiKey: string; id: string };
  };
  const revoked = await mint();
  const revoke = await fetch(`${url}/keys/${revoked.id}`, { method: 'DELETE', headers: bearer(token) });
  if (revoke.status !== 204) throw new Error(`uniform401WireSweep: DELETE /keys/<id> answered ${revoke.status}, not 204`);
  const live = await mint();

  const answers: Array<readonly [string, string]> = [];
  const record = async (
    what: string,
    [method, path, body]: WireRoute,
    headers: ReadonlyArray<readonly [string, string]>,
  ): Promise<void> => {
    answers.push([`${what} on ${method} ${path}`, wireSnapshotOf(await sendRawRequest(url, method, path, headers, body))]);
  };
  const cases = authFailureCases({ idp, revokedApiKey: revoked.apiKey });
  for (const route of [...input.accountRoutes, ...keyRoutes(live.id)]) {
    for (const { cause, headers } of cases) await record(cause, route, headers);
  }
  const apiKey: ReadonlyArray<readonly [string, string]> = [['Authorization', `Bearer ${live.apiKey}`]];
  for (const route of [
    ['POST', '/keys', '{"name":"x"}'],
    ['POST', '/keys', 'not json'],
    ...(input.idTokenOnlyRoutes ?? []),
  ] as WireRoute[]) {
    await record('wrong credential type', route, apiKey);
  }
  if (input.optionalRoute !== undefined) await record('unknown', input.optionalRoute, [['Authorization', 'Bearer hp_nope']]);

  const [method, path] = input.accountRoutes[0] ?? ['GET', '/keys'];
  const reference = await sendRawRequest(url, method, path);
  return { reference, expected: wireSnapshotOf(reference), answers };
}
