import { BEARER_CHALLENGE, UNAUTHENTICATED_MESSAGE } from '../errors/unauthenticated-error.js';
import type { RawResponse } from './raw-http.js';

/** The exact bytes of the one 401 body, the same for every authentication failure. */
export const UNIFORM_401_BODY = JSON.stringify({ error: UNAUTHENTICATED_MESSAGE });

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

/** The snapshot every authentication failure must equal. */
export const UNIFORM_401: AnswerSnapshot = {
  status: 401,
  body: Buffer.from(UNIFORM_401_BODY).toString('hex'),
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(UNIFORM_401_BODY)),
    'www-authenticate': BEARER_CHALLENGE,
    'cache-control': 'no-store',
    'retry-after': null,
    allow: null,
    etag: null,
    location: null,
    'set-cookie': null,
  },
  headerOrder: ['cache-control', 'content-length', 'content-type', 'www-authenticate'],
};
