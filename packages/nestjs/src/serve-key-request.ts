import type { IncomingMessage, ServerResponse } from 'node:http';
import { DropsAuthError, PayloadTooLargeError, type Principal } from '@drops/auth';
import { authorizationOfNodeRequest, parseJsonText, readJsonBody, requestInfoOfNodeRequest, writeNodeAnswer } from '@drops/auth/adapter';
import type { DropsAuthContext } from './drops-auth-options.js';

type KeyRoutesMount = NonNullable<DropsAuthContext['keyRoutes']>;

/**
 * Whether a request path (`/keys?x`) is the keys path or below it.
 * @internal
 */
export function isUnderKeysPath(url: string, keysPath: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return pathname === keysPath || pathname.startsWith(`${keysPath}/`);
}

/**
 * Answers one request under the keys path with the `/keys` core, on Node's request and response:
 * the credential from the raw headers (two `Authorization` headers are the uniform 401), the body
 * read here (or taken from a body parser that ran first), the answer written as its exact bytes.
 * Errors other than drops-auth's are rejected for the framework to answer.
 * @internal
 */
export async function serveKeyRequest(
  context: DropsAuthContext,
  mount: KeyRoutesMount,
  frameworkRequest: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  ip: string | null,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  let principal: Principal | undefined;
  try {
    const answer = await mount.routes.handle({
      method: req.method ?? 'GET',
      path: url.pathname.slice(mount.path.length),
      query: url.searchParams,
      authorization: authorizationOfNodeRequest(req),
      info: () => requestInfoOfNodeRequest(req, ip),
      readJson: (limit) => readKeysBody(req, limit),
      authenticated: (p) => {
        principal = p;
        (frameworkRequest as { auth?: unknown }).auth = p;
      },
    });
    writeNodeAnswer(res, answer, principal);
  } catch (error) {
    if (!(error instanceof DropsAuthError)) throw error;
    context.onError?.(error, frameworkRequest);
    // An error after authentication (400, 404, 405) carries the expiry warning too.
    writeNodeAnswer(res, error, principal);
  }
}

/**
 * The JSON body: read from the stream (400 for non-JSON or compressed, 413 over `limit`), or, when
 * a body parser already read it (Nest's own when the app was built without the route mounted
 * first, e.g. from `@nestjs/testing`), what it left, with the same limit on `Content-Length`.
 */
async function readKeysBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const parsed = req as IncomingMessage & { _body?: unknown; body?: unknown };
  if (parsed._body !== true && !req.readableEnded) {
    return readJsonBody(req, { limit, contentLength: req.headers['content-length'], contentEncoding: req.headers['content-encoding'] });
  }
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new PayloadTooLargeError(`the request body must be at most ${limit} bytes`);
  const body = parsed.body;
  if (Buffer.isBuffer(body)) return parseJsonText(body.toString('utf8'));
  if (typeof body === 'string') return parseJsonText(body);
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return undefined;
  return body;
}
