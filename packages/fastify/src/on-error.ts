import type { DropsAuthError } from '@drops/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { respondWithError } from './respond-with-error.js';

/** What `onError` of `dropsAuth()` is called with. @internal */
export type OnError = (error: DropsAuthError, request: FastifyRequest) => void;

/** Answers a drops-auth error once `onError` has seen it. @internal */
export function answerError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: DropsAuthError,
  onError: OnError | undefined,
): FastifyReply {
  onError?.(error, request);
  return respondWithError(reply, error);
}
