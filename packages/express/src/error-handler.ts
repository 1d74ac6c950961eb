import { DropsAuthError, type Authenticator } from '@drops/auth';
import {
  authorizationOfNodeRequest,
  isIdTokenOnlyKeyRoute,
  parseAccept,
  GITHUB_SECRET_SCANNING_PATH,
  REVOKE_CREDENTIALS_PATH,
} from '@drops/auth/adapter';
import type { ErrorRequestHandler, Request } from 'express';
import { bodyParserError } from './body-parser-error.js';
import type { Fail } from './fail.js';
import { requestInfoOf } from './request-info.js';

/** Options of `errorHandler()`. */
export interface ErrorHandlerOptions {
  /**
   * Paths (a path, or a prefix ending in `/`) that take requests with no credential, for a body
   * parser mounted before drops: there a body it cannot parse, sent with no `Authorization`
   * header, is a JSON 400/413; on every other path, the uniform 401 (the credential is judged
   * before the body). Default: the leaked-key routes, `['/credentials/revoke', '/secret-scanning/github']`.
   */
  publicPaths?: readonly string[];
  /**
   * Where `keysRouter()` is mounted, so that a body the parser refused on an ID-token-only key route
   * (those of `KEY_ROUTES`, `@drops/auth/adapter`, whose credentials are `'id_token'`) is judged as
   * that route judges: an API key there is the uniform 401 (only an ID token mints).
   * Default `'/keys'`.
   */
  keysPath?: string;
}

interface ResolvedErrorHandlerOptions {
  readonly publicPaths: readonly string[];
  readonly keysPath: string;
}

const KNOWN_OPTIONS = new Set(['publicPaths', 'keysPath']);
const isPath = (p: unknown): p is string => typeof p === 'string' && p.startsWith('/');

function parseOptions(options: ErrorHandlerOptions = {}): ResolvedErrorHandlerOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('errorHandler: options must be an object');
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`errorHandler: unknown option "${key}"`);
  }
  const publicPaths = options.publicPaths ?? [REVOKE_CREDENTIALS_PATH, GITHUB_SECRET_SCANNING_PATH];
  if (!Array.isArray(publicPaths) || !publicPaths.every(isPath)) {
    throw new TypeError('errorHandler: publicPaths must be a list of paths starting with "/"');
  }
  const keysPath = options.keysPath ?? '/keys';
  if (!isPath(keysPath)) throw new TypeError('errorHandler: keysPath must be a path starting with "/"');
  return { publicPaths: [...publicPaths], keysPath: keysPath.replace(/\/$/, '') };
}

const ID_TOKEN_ONLY = parseAccept(['id_token']);
const BOTH = parseAccept(undefined);

const isUnder = (path: string, paths: readonly string[]): boolean =>
  paths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p || path.startsWith(`${p}/`)));

/**
 * Express's error handler for one `dropsAuth()`: answers drops-auth errors (e.g. `principalOf`
 * on a route without `requireAuth()`) with their exact bytes, and the errors of a body parser
 * (`express.json()`, `express.urlencoded()`) that ran before any drops middleware judged the
 * request (one mounted after `requireAuth()` is left to the app): the credential is judged first, so without a valid one the answer is the uniform 401 (or 503), with one a JSON
 * 400/413, never Express's HTML page. Any other error goes to `next(err)`.
 * @internal Reached through `dropsAuth(...).errorHandler()`.
 */
export function createErrorHandler(
  authenticator: Authenticator,
  options: ErrorHandlerOptions | undefined,
  fail: Fail,
): ErrorRequestHandler {
  const { publicPaths, keysPath } = parseOptions(options);

  async function judgeBodyError(req: Request, bodyError: DropsAuthError): Promise<DropsAuthError> {
    const authorization = authorizationOfNodeRequest(req);
    if (authorization === undefined && isUnder(req.path, publicPaths)) return bodyError;
    const below = req.path.toLowerCase().startsWith(keysPath.toLowerCase()) ? req.path.slice(keysPath.length) : null;
    const idTokenOnly = below !== null && (below === '' || below.startsWith('/')) && isIdTokenOnlyKeyRoute(req.method, below);
    await authenticator.authenticate(authorization, { accept: idTokenOnly ? ID_TOKEN_ONLY : BOTH, request: () => requestInfoOf(req) });
    return bodyError;
  }

  return (err, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    // A parser mounted after requireAuth()/optionalAuth() failed on a request already judged:
    // its error is the app's to answer, as any other.
    const bodyError = err instanceof DropsAuthError || req.auth !== undefined ? null : bodyParserError(err);
    if (bodyError === null) {
      fail(req, res, next, err);
      return;
    }
    judgeBodyError(req, bodyError).then(
      (error) => fail(req, res, next, error),
      (error: unknown) => fail(req, res, next, error),
    );
  };
}
