import type { HeadersLike } from '../authenticator/parse-authorization.js';
import { RateLimitedError } from '../errors/rate-limited-error.js';
import type { RequestInfo } from '../key-store/key-event.js';
import type { KeyManager } from '../keys/create-key-manager.js';
import { clientSubjectOf } from '../rate-limit/client-subject.js';
import { takeOrUnavailable } from '../rate-limit/rate-limit-store.js';
import { revokeGitHubMatches } from '../secret-scanning/github-secret-scanning-feedback.js';
import { readSignatureHeaders } from '../secret-scanning/signature-headers.js';
import { parseLeakedKeysOptions, type LeakedKeysOptions } from './leaked-keys-options.js';
import { credentialsOfRevokeRequest, REVOKE_CREDENTIALS_EXAMPLE } from './revoke-credentials-request.js';
import { jsonAnswer, type RouteAnswer } from './route-answer.js';

/** The paths of the leaked-key routes, under wherever they are mounted. */
export const REVOKE_CREDENTIALS_PATH = '/credentials/revoke';
export const GITHUB_SECRET_SCANNING_PATH = '/secret-scanning/github';

/** The scopes the leaked-key routes count in, in a `RateLimitStore` (per client address). */
const REVOKE_BY_VALUE_RATE_LIMIT_SCOPE = 'revoke_by_value';
const SECRET_SCANNING_RATE_LIMIT_SCOPE = 'secret_scanning';

/**
 * The one answer of `POST /credentials/revoke`, whatever was revoked: the same bytes whether or
 * not any key existed, so it never confirms that a credential once did. It is sent once the
 * request is recorded, before the revocation, so its time says nothing either.
 */
const REVOKE_ACCEPTED: RouteAnswer = Object.freeze(jsonAnswer(202, { message: 'any active key among these credentials is revoked' }));

/**
 * What a leaked-key route needs of a request, from any framework: its headers (the secret
 * scanning signature), the client (for events and the rate limit), and its body, read only when
 * the route asks.
 *
 * @example
 * ```ts
 * import { readBodyBytes, readJsonBody, requestInfoOfNodeRequest, type LeakedKeyRequest } from '@drops/auth/adapter';
 *
 * // From a Node `IncomingMessage` whose body no parser has read yet.
 * const request: LeakedKeyRequest = {
 *   headers: req.headers,
 *   info: requestInfoOfNodeRequest(req),
 *   readBytes: (limit) => readBodyBytes(req, { limit, contentLength: req.headers['content-length'] }),
 *   readJson: (limit, example) => readJsonBody(req, { limit, example, contentLength: req.headers['content-length'] }),
 * };
 * ```
 */
export interface LeakedKeyRequest {
  readonly headers: HeadersLike;
  /** The client's address and `User-Agent`, for the events (the address also keys the rate limit). */
  readonly info: RequestInfo;
  /** The body as sent, at most `limit` bytes (413 over it, 400 when compressed). */
  readBytes(limit: number): Promise<Uint8Array>;
  /** The body as JSON (a body parser may have read it already), quoting `example` in the 400 for non-JSON. */
  readJson(limit: number, example: string): Promise<unknown>;
}

/**
 * The framework-free core of the leaked-key routes, which `leakedKeysHandler` (fetch),
 * `leakedKeysRouter` (Express) and `dropsAuth().leakedKeysRouter()` (Koa) route to. Each method
 * resolves the answer to write, or rejects with a `DropsAuthError` to answer as such.
 */
export interface LeakedKeyRoutes {
  /** `POST /credentials/revoke`. */
  revokeCredentials(request: LeakedKeyRequest): Promise<RouteAnswer>;
  /** `POST /secret-scanning/github`; `null` when secret scanning is off (the route is not served). */
  readonly githubSecretScanning: ((request: LeakedKeyRequest) => Promise<RouteAnswer>) | null;
}

/**
 * Builds the leaked-key routes for one key manager; options are checked here, once (a mistake is
 * a `TypeError` naming `where`): `POST /credentials/revoke` (anyone holding a leaked key revokes
 * it: always the same `202`, rate limited per client) and, unless `githubSecretScanning` is
 * `false`, `POST /secret-scanning/github` (signed alerts, checked against GitHub's key list by
 * default; with `false`, `githubSecretScanning` is `null` and the route is not served). An
 * adapter routes a request to one of them and writes the
 * answer, or the `DropsAuthError` it rejects with, as the exact bytes.
 *
 * @example
 * ```ts
 * import { createLeakedKeyRoutes, REVOKE_CREDENTIALS_PATH, writeNodeAnswer } from '@drops/auth/adapter';
 * import { isDropsAuthError } from '@drops/auth';
 *
 * const routes = createLeakedKeyRoutes(keys, { revokeRateLimit: { max: 10, windowMs: 60_000 } }, 'myLeakedKeysRouter');
 * if (req.method === 'POST' && path === REVOKE_CREDENTIALS_PATH) {
 *   const answer = await routes.revokeCredentials(leakedKeyRequest).catch((err: unknown) => {
 *     if (isDropsAuthError(err)) return err;
 *     throw err;
 *   });
 *   writeNodeAnswer(res, answer); // 202 {"message": "..."}, or the 429/400/413/503 as its bytes
 * }
 * ```
 */
export function createLeakedKeyRoutes(keys: KeyManager, options: LeakedKeysOptions | undefined, where: string): LeakedKeyRoutes {
  if (typeof (keys as Partial<KeyManager> | null)?.revokeBySecretLater !== 'function') {
    throw new TypeError(`${where}: keys must come from createKeyManager()`);
  }
  const o = parseLeakedKeysOptions(options, where);
  const { revokeRateLimit, secretScanningRateLimit, rateLimitStore } = o;
  const secretScanning = o.githubSecretScanning;
  // Per client address, IPv6 per network: one client holds a whole /64.
  const subjectOf = (request: LeakedKeyRequest): string => clientSubjectOf(request.info.ip ?? '', o.ipv6PrefixLength);
  // What a previous process recorded and did not carry out (a crash, a restart) is done now; a
  // failure leaves it for the next request's pass.
  keys.revokePending().catch(() => {});

  return {
    async revokeCredentials(request) {
      // Counted before the body is read: a flood of bad bodies is limited like good ones.
      const waitMs =
        revokeRateLimit === null
          ? 0
          : await takeOrUnavailable(rateLimitStore, REVOKE_BY_VALUE_RATE_LIMIT_SCOPE, subjectOf(request), revokeRateLimit);
      if (waitMs > 0) throw new RateLimitedError('too many revocation requests from this address: try again later', waitMs / 1000);
      const body = await request.readJson(o.revokeBodyLimit, REVOKE_CREDENTIALS_EXAMPLE);
      // Recorded, then revoked in the background: the answer's time is the same whether a value
      // was a live key, a revoked one or never one (the revocation itself waits on every instance).
      await keys.revokeBySecretLater(credentialsOfRevokeRequest(body), { source: 'revoke_by_value', request: request.info });
      return REVOKE_ACCEPTED;
    },
    githubSecretScanning:
      secretScanning === null
        ? null
        : async (request) => {
            // No credential here: counted, and the signature headers' shape checked (the 401 the
            // verifier would give), before a byte of the body is read.
            const waitMs =
              secretScanningRateLimit === null
                ? 0
                : await takeOrUnavailable(rateLimitStore, SECRET_SCANNING_RATE_LIMIT_SCOPE, subjectOf(request), secretScanningRateLimit);
            if (waitMs > 0) throw new RateLimitedError('too many secret scanning alerts from this address: try again later', waitMs / 1000);
            readSignatureHeaders(request.headers);
            const body = await request.readBytes(o.secretScanningBodyLimit);
            const matches = await secretScanning.verify(body, request.headers);
            return jsonAnswer(200, await revokeGitHubMatches(keys, matches, request.info));
          },
  };
}
