import type { Authenticator } from '@drops/auth';
import {
  authorizationOfNodeRequest,
  createAuthCheck,
  isErrorAnswer,
  KEY_EXPIRATION_HEADER,
  keyExpirationHeader,
  parseAuthRouteOptions,
  type AuthAnswer,
  type AuthRouteOptions,
} from '@drops/auth/adapter';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import './drops-auth-request.js';
import { answerError, type OnError } from './on-error.js';
import { requestInfoOf } from './request-info.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
export type AuthHookOptions = AuthRouteOptions;

/**
 * A Fastify `onRequest` or `preHandler` hook. Fastify calls it with `done`: it goes on in the same
 * call when the answer is at hand (a store answering from memory, a cached ID token), and answers
 * a failure itself. Called without `done` (from a hook of your own), it returns a promise of
 * `undefined` once `request.auth` is set, or of the reply once it has answered the failure.
 */
export interface AuthHook {
  (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
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
  const accept = parseAuthRouteOptions(options, authenticator, optional ? 'optionalAuth()' : 'requireAuth()');
  const check = createAuthCheck(authenticator, { accept, optional });

  /** Sets `request.auth` and says `true`, or answers the failure and says `false`. */
  function passed(request: FastifyRequest, reply: FastifyReply, answer: AuthAnswer): boolean {
    if (isErrorAnswer(answer)) {
      answerError(request, reply, answer, onError);
      return false;
    }
    request.auth = answer;
    const expiration = keyExpirationHeader(answer);
    if (expiration !== null) reply.header(KEY_EXPIRATION_HEADER, expiration);
    return true;
  }

  // A plain function of three parameters, so Fastify (4 and 5 alike) hands it `done` and waits
  // for it: no promise, and no `.then` of Fastify's own, when the answer is at hand.
  function hook(
    request: FastifyRequest,
    reply: FastifyReply,
    done?: HookHandlerDoneFunction,
  ): Promise<FastifyReply | undefined> | undefined {
    // `request.ip` follows `trustProxy`: read only if a first use is written.
    const answer = check(authorizationOfNodeRequest(request.raw), () => requestInfoOf(request));
    if (done === undefined) {
      return Promise.resolve(answer).then((settled) => (passed(request, reply, settled) ? undefined : reply));
    }
    if (!(answer instanceof Promise)) {
      if (passed(request, reply, answer)) done();
      return undefined;
    }
    answer.then((settled) => {
      let through: boolean;
      try {
        through = passed(request, reply, settled);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (through) done();
    }, done);
    return undefined;
  }
  return hook as AuthHook;
}
