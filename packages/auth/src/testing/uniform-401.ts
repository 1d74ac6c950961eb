import { parseUnauthenticated, type UnauthenticatedOptions } from '../errors/unauthenticated-answer.js';
import type { RawResponse } from './raw-http.js';

/** The exact bytes of the one 401 body, the same for every authentication failure (the spec's). */
export const UNIFORM_401_BODY: string = parseUnauthenticated(undefined, 'UNIFORM_401_BODY').bodyText;

/** What a client can observe of an answer, minus what legitimately varies (date, request id). */
export interface AnswerSnapshot {
  readonly status: number;
  /** The body's bytes, as hex, so any difference at all shows. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string | null>>;
  /**
   * The {@link COMPARED_HEADERS} present, in the order they arrived. A fetch `Response` exposes
   * its headers sorted by name; read the answer with `rawRequest()` to see the order on the wire.
   */
  readonly headerOrder: readonly string[];
}

/** Headers that could tell two failures apart. */
export const COMPARED_HEADERS = [
  'content-type',
  'content-length',
  'www-authenticate',
  'cache-control',
  'retry-after',
  'allow',
  'etag',
  'location',
  'set-cookie',
] as const;

function isRawResponse(res: Response | RawResponse): res is RawResponse {
  return 'headerLines' in res;
}

/**
 * Reads an answer into an {@link AnswerSnapshot}, for asserting that an adapter answers every
 * authentication failure with the same bytes. Give it a `RawResponse` from `rawRequest()` to
 * compare the order of the headers on the wire too (the adapters send the compared headers
 * sorted by name, the order a fetch `Response` shows them in).
 *
 * @example
 * ```ts
 * expect(await snapshotOf(await fetch(`${url}/whoami`))).toEqual(UNIFORM_401);
 * expect(await snapshotOf(await rawRequest(url, rawHttpRequest('GET', '/whoami')))).toEqual(UNIFORM_401);
 * ```
 */
export async function snapshotOf(res: Response | RawResponse): Promise<AnswerSnapshot> {
  const compared: readonly string[] = COMPARED_HEADERS;
  if (isRawResponse(res)) {
    const headers: Record<string, string | null> = {};
    for (const name of COMPARED_HEADERS) headers[name] = res.headers[name] ?? null;
    const headerOrder = res.headerLines.map(([name]) => name.toLowerCase()).filter((name) => compared.includes(name));
    return { status: res.status, body: res.body.toString('hex'), headers, headerOrder };
  }
  const body = Buffer.from(await res.arrayBuffer()).toString('hex');
  const headers: Record<string, string | null> = {};
  for (const name of COMPARED_HEADERS) headers[name] = res.headers.get(name);
  const headerOrder = [...res.headers.keys()].filter((name) => compared.includes(name));
  return { status: res.status, body, headers, headerOrder };
}

/**
 * The snapshot every authentication failure must equal for an authenticator created with
 * `unauthenticated` (the spec's 401 without it).
 *
 * @example
 * ```ts
 * const authenticator = createAuthenticator({ keyStore, unauthenticated: { realm: 'acme', message: 'sign in at acme.example' } });
 * expect(await snapshotOf(await fetch(`${url}/whoami`))).toEqual(uniform401Of({ realm: 'acme', message: 'sign in at acme.example' }));
 * ```
 */
export function uniform401Of(unauthenticated?: UnauthenticatedOptions): AnswerSnapshot {
  const { challenge, bodyText } = parseUnauthenticated(unauthenticated, 'uniform401Of');
  return {
    status: 401,
    body: Buffer.from(bodyText).toString('hex'),
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(bodyText)),
      'www-authenticate': challenge,
      'cache-control': 'no-store',
      'retry-after': null,
      allow: null,
      etag: null,
      location: null,
      'set-cookie': null,
    },
    headerOrder: ['cache-control', 'content-length', 'content-type', 'www-authenticate'],
  };
}

/** The snapshot every authentication failure must equal (the spec's 401). */
export const UNIFORM_401: AnswerSnapshot = uniform401Of();

/**
 * The 401s every adapter's wire sweep runs over: the spec's (no `unauthenticated` option) and an
 * app's own realm and message.
 *
 * @example
 * ```ts
 * describe.each(UNAUTHENTICATED_VARIANTS)('%s', (_label, unauthenticated) => {
 *   // createAuthenticator({ keyStore, unauthenticated }); … expect(snapshot).toEqual(uniform401Of(unauthenticated));
 * });
 * ```
 */
export const UNAUTHENTICATED_VARIANTS: ReadonlyArray<readonly [label: string, unauthenticated: UnauthenticatedOptions | undefined]> = [
  ["the spec's 401", undefined],
  ["an app's own 401", { realm: 'acme', message: 'missing or invalid API key: create one at https://acme.example/keys' }],
];
