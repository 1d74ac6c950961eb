import { DropsAuthError, type Authenticator, type CredentialType } from '@drops/auth';
import { authorizationOfNodeRequest, KEY_EXPIRATION_HEADER, keyExpirationHeader, parseAccept } from '@drops/auth/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import './drops-auth-request.js';
import { answerError, type OnError } from './on-error.js';
import { requestInfoOf } from './request-info.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
export interface AuthHookOptions {
  /**
   * Credential types the route accepts. Default both: `['api_key', 'id_token']`.
   * `['id_token']` for routes only a signed-in person may use (minting keys, account settings).
   */
  accept?: readonly CredentialType[];
}

/** A Fastify `onRequest` or `preHandler` hook (async: it answers the failure itself and returns the reply). */
export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

const KNOWN_OPTIONS = new Set(['accept']);

function parseHookOptions(name: string, options: AuthHookOptions | undefined): readonly CredentialType[] {
  if (options === undefined) return parseAccept(undefined);
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${name}(): options must be an object such as { accept: ['id_token'] }`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`${name}(): unknown option "${key}"`);
  }
  return parseAccept(options.accept);
}

/**
 * Builds the hook behind `requireAuth()` (`optional: false`) and `optionalAuth()`
 * (`optional: true`). Options are checked here, once. The credential is read from the raw
 * headers, so two `Authorization` headers are the uniform 401 (Node keeps only the first in
 * `request.headers`).
 * @internal
 */
export function authHook(
  authenticator: Authenticator,
  optional: boolean,
  options: AuthHookOptions | undefined,
  onError: OnError | undefined,
): AuthHook {
  const accept = parseHookOptions(optional ? 'optionalAuth' : 'requireAuth', options);
  return async (request, reply) => {
    // `request.ip` follows `trustProxy`: read only if a first use is written.
    const authOptions = { accept, request: () => requestInfoOf(request) };
    const authorization = authorizationOfNodeRequest(request.raw);
    try {
      const principal = optional
        ? await authenticator.authenticateOptional(authorization, authOptions)
        : await authenticator.authenticate(authorization, authOptions);
      (request as { auth: unknown }).auth = principal;
      const expiration = keyExpirationHeader(principal);
      if (expiration !== null) reply.header(KEY_EXPIRATION_HEADER, expiration);
    } catch (error) {
      if (error instanceof DropsAuthError) return answerError(request, reply, error, onError);
      throw error;
    }
    return undefined;
  };
}
