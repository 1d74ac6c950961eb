import type { DropsAuthError, Principal } from '@drops/auth';
import { canonicalHeaders, type RouteAnswer } from '@drops/auth/adapter';
import type { FastifyReply } from 'fastify';

/**
 * Writes a drops-auth error to a Fastify reply: the error's own status, headers and body bytes.
 * This is how every response of this package fails, so the 401 is byte-identical to the one
 * every other adapter sends. Returns the reply, to `return` from an async hook or handler.
 *
 * The error's headers and `Content-Length` go out in the canonical order (sorted by name), after
 * any header set earlier on the reply (an earlier copy is removed first), so no route can answer
 * its 401 in another order. After authentication (`request.auth` set) an API key expiring within 7
 * days is warned with `Drops-Key-Expiration`, as on every other answer to it.
 *
 * @example
 * ```ts
 * app.delete('/drops/:id', { preHandler: auth.requireAuth() }, async (request, reply) => {
 *   try {
 *     await keys.revoke(request.auth, request.params.id);
 *   } catch (error) {
 *     if (error instanceof DropsAuthError) return respondWithError(reply, error);
 *     throw error;
 *   }
 *   return reply.code(204).send();
 * });
 * ```
 */
export function respondWithError(reply: FastifyReply, error: DropsAuthError): FastifyReply {
  return respondWithAnswer(reply, error, (reply.request as { auth?: Principal | null }).auth);
}

/**
 * Writes a route's answer (a `DropsAuthError` is one) as its exact bytes, with the expiry warning
 * for `principal` (the kit's `canonicalHeaders`); see {@link respondWithError}.
 * A string body with a JSON `Content-Type` is sent by Fastify as is, and the `Content-Length`
 * set here is kept, so Fastify adds no header and reorders none.
 * @internal
 */
export function respondWithAnswer(reply: FastifyReply, answer: RouteAnswer, principal?: Principal | null): FastifyReply {
  const headers = canonicalHeaders(answer, principal);
  for (const [name] of headers) reply.removeHeader(name);
  reply.code(answer.status);
  for (const [name, value] of headers) reply.header(name, value);
  return reply.send(answer.status === 204 ? undefined : answer.bodyText);
}
