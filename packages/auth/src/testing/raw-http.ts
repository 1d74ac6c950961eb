import { connect } from 'node:net';

/** An HTTP/1.1 answer read off a raw socket. */
export interface RawResponse {
  readonly status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** Header lines as sent, in the order sent: `[name as sent, value]`. */
  readonly headerLines: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  /** Everything the server sent, as latin1. */
  readonly raw: string;
}

/** Options of {@link rawRequest}. */
export interface RawRequestOptions {
  /**
   * End the write side once the request is sent (a client with nothing more to say). Node's HTTP
   * server then abandons a request still being processed and closes the socket: right for
   * requests the server should refuse before they complete, wrong for waiting on a normal answer.
   * Default `true`; pass `false` with a request that sends `Connection: close`
   * ({@link rawHttpRequest} does), so the server closes after answering.
   */
  readonly halfClose?: boolean;
}

/**
 * Sends bytes exactly as given (no client-side header validation, so CR/LF, NUL, duplicate and
 * oversized headers all reach the server) and reads until the server closes the connection.
 * Send `Connection: close` in `request` for a normal answer to end the read (see
 * {@link rawHttpRequest}). Resolves `status: 0` when the server closed without answering.
 *
 * @example
 * ```ts
 * const res = await rawRequest(url, rawHttpRequest('GET', '/whoami'), 10_000, { halfClose: false });
 * res.status; // 401
 * ```
 */
export function rawRequest(
  baseUrl: string,
  request: string | Buffer,
  timeoutMs = 10_000,
  options: RawRequestOptions = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may reset the connection mid-request (e.g. while a huge header is still being sent).
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks)));
    });
    socket.write(request, () => {
      if (options.halfClose !== false) socket.end();
    });
  });
}

/**
 * The bytes of an HTTP/1.1 request with `Host` and `Connection: close` (so {@link rawRequest}
 * reads to the end of the answer) and a `Content-Length` when there is a body. Headers go out
 * exactly as given, repeated names included.
 *
 * @example
 * ```ts
 * rawHttpRequest('GET', '/whoami', [['authorization', 'Bearer a'], ['authorization', 'Bearer b']]);
 * ```
 */
export function rawHttpRequest(
  method: string,
  path: string,
  headers: ReadonlyArray<readonly [string, string]> = [],
  body?: string,
): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/**
 * Sends {@link rawHttpRequest}`(method, path, headers, body)` on a fresh socket and waits for the
 * whole answer (the server closes after it: `Connection: close`).
 *
 * @example
 * ```ts
 * const res = await sendRawRequest(url, 'POST', '/keys', [['Authorization', `Bearer ${apiKey}`]], '{}');
 * wireSnapshotOf(res);
 * ```
 */
export function sendRawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: ReadonlyArray<readonly [string, string]> = [],
  body?: string,
): Promise<RawResponse> {
  return rawRequest(baseUrl, rawHttpRequest(method, path, headers, body), 10_000, { halfClose: false });
}

/** Headers that legitimately differ from one request to the next. */
export const PER_REQUEST_HEADERS: readonly string[] = ['date', 'x-request-id', 'connection', 'keep-alive'];

/**
 * What a client reads on the wire, minus the per-request headers ({@link PER_REQUEST_HEADERS}):
 * the status line, every other header line in the order sent, and the body bytes. Two answers
 * with equal wire snapshots cannot be told apart by anything a client sees, header order
 * included.
 *
 * @example
 * ```ts
 * expect(wireSnapshotOf(await rawRequest(url, rawHttpRequest('POST', '/keys', apiKey)))).toBe(
 *   wireSnapshotOf(await rawRequest(url, rawHttpRequest('GET', '/keys'))),
 * );
 * ```
 */
export function wireSnapshotOf(response: RawResponse): string {
  const headEnd = response.raw.indexOf('\r\n\r\n');
  if (headEnd === -1) return response.raw;
  const [statusLine = '', ...lines] = response.raw.slice(0, headEnd).split('\r\n');
  const kept = lines.filter((line) => !PER_REQUEST_HEADERS.includes(line.slice(0, line.indexOf(':')).trim().toLowerCase()));
  return `${[statusLine, ...kept].join('\r\n')}\r\n\r\n${response.raw.slice(headEnd + 4)}`;
}

function parseResponse(data: Buffer): RawResponse {
  const raw = data.toString('latin1');
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd === -1) return { status: 0, headers: {}, headerLines: [], body: Buffer.alloc(0), raw };
  const [statusLine = '', ...lines] = raw.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  const headerLines: Array<[string, string]> = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const sent = line.slice(0, colon).trim();
    const name = sent.toLowerCase();
    const value = line.slice(colon + 1).trim();
    headerLines.push([sent, value]);
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = data.subarray(Buffer.byteLength(raw.slice(0, headEnd + 4), 'latin1'));
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(body);
  return { status, headers, headerLines, body, raw };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}
