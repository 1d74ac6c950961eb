import { DropsAuthError, type Authenticator } from '@drops/auth';
import {
  answerOfError,
  authorizationOfNodeRequest,
  KEY_EXPIRATION_HEADER,
  keyExpirationHeader,
  parseAuthRouteOptions,
  type AuthRouteOptions,
} from '@drops/auth/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import './drops-auth-request.js';
import { answerError, type OnError } from './on-error.js';
import { requestInfoOf } from './request-info.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
export type AuthHookOptions = AuthRouteOptions;

/** A Fastify `onRequest` or `preHandler` hook (async: it answers the failure itself and returns the reply). */
export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

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
  const accept = parseAuthRouteOptions(options, authenticator, optional ? 'optionalAuth()' : 'requireAuth()');
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
      if (error instanceof DropsAuthError) return answerError(request, reply, answerOfError(error, authenticator), onError);
      throw error;
    }
    return undefined;
  };
}
