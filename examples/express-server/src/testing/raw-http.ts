import { connect } from 'node:net';

/** An HTTP/1.1 answer read off a raw socket. */
export interface RawResponse {
  readonly status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Everything the server sent, as latin1. */
  readonly raw: string;
}

/**
 * Sends bytes exactly as given (no client-side header validation, so CR/LF, NUL, duplicate and
 * oversized headers all reach the server) and reads until the server closes the connection.
 * Send `Connection: close` in `request` for a normal answer to end the read. Resolves `status: 0`
 * when the server closed without answering.
 */
export function rawRequest(baseUrl: string, request: string | Buffer, timeoutMs = 10_000): Promise<RawResponse> {
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
    socket.write(request, () => socket.end());
  });
}

function parseResponse(data: Buffer): RawResponse {
  const raw = data.toString('latin1');
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd === -1) return { status: 0, headers: {}, body: Buffer.alloc(0), raw };
  const [statusLine = '', ...lines] = raw.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = data.subarray(Buffer.byteLength(raw.slice(0, headEnd + 4), 'latin1'));
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(body);
  return { status, headers, body, raw };
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
