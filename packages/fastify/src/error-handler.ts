import { DropsAuthError, type Authenticator } from '@drops/auth';
import { answerOfError } from '@drops/auth/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerError, type OnError } from './on-error.js';

/** A Fastify error handler, for `app.setErrorHandler()`. */
export type DropsAuthErrorHandler = (error: unknown, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * The error handler behind `dropsAuth().errorHandler`: a `DropsAuthError` a route throws
 * (`principalOf` on a route without a hook, `keys.revoke`'s 404) is answered with its exact bytes,
 * the 401 the authenticator's; any other error is thrown on, to Fastify's next error handler (its
 * default one at the root).
 * @internal
 */
export function createErrorHandler(authenticator: Authenticator, onError: OnError | undefined): DropsAuthErrorHandler {
  return (error, request, reply) => {
    if (!(error instanceof DropsAuthError)) throw error;
    return answerError(request, reply, answerOfError(error, authenticator), onError);
  };
}
