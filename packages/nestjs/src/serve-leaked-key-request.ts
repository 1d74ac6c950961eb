import type { IncomingMessage, ServerResponse } from 'node:http';
import { DropsAuthError, MethodNotAllowedError } from '@drops/auth';
import {
  GITHUB_SECRET_SCANNING_PATH,
  readBodyBytes,
  readJsonBody,
  requestInfoOfNodeRequest,
  REVOKE_CREDENTIALS_PATH,
  writeNodeAnswer,
  type LeakedKeyRequest,
  type LeakedKeyRoutes,
  type RouteAnswer,
} from '@drops/auth/adapter';
import type { DropsAuthContext } from './drops-auth-options.js';

/** A route of the leaked-key core for a request path, or `undefined` when the path is not one. @internal */
export type LeakedKeyRoute = (request: LeakedKeyRequest) => Promise<RouteAnswer>;

/**
 * The leaked-key route a request path (`/credentials/revoke?x`) names, if any.
 * @internal
 */
export function leakedKeyRouteOf(routes: LeakedKeyRoutes, url: string): LeakedKeyRoute | undefined {
  const pathname = url.split('?', 1)[0] ?? '';
  if (pathname === REVOKE_CREDENTIALS_PATH) return routes.revokeCredentials;
  if (pathname === GITHUB_SECRET_SCANNING_PATH && routes.githubSecretScanning !== null) return routes.githubSecretScanning;
  return undefined;
}

/**
 * Answers `POST /credentials/revoke` or `POST /secret-scanning/github` with the leaked-key core on
 * Node's request and response (another method: 405 with `Allow: POST`). The body is read from the
 * stream here, ahead of any body parser (GitHub signs the raw bytes).
 * @internal
 */
export async function serveLeakedKeyRequest(
  context: DropsAuthContext,
  route: LeakedKeyRoute,
  frameworkRequest: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  ip: string | null,
): Promise<void> {
  const body = { contentLength: req.headers['content-length'], contentEncoding: req.headers['content-encoding'] };
  try {
    if (req.method !== 'POST') throw new MethodNotAllowedError(['POST']);
    const answer = await route({
      headers: req.headers,
      info: requestInfoOfNodeRequest(req, ip),
      readBytes: (limit) => readBodyBytes(req, { limit, ...body }),
      readJson: (limit, example) => readJsonBody(req, { limit, ...body, example }),
    });
    writeNodeAnswer(res, answer);
  } catch (error) {
    if (!(error instanceof DropsAuthError)) throw error;
    context.onError?.(error, frameworkRequest);
    writeNodeAnswer(res, error);
  }
}
