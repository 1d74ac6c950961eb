import type { Principal } from '../authenticator/principal.js';
import type { RouteAnswer } from '../leaked-keys/route-answer.js';
import { canonicalHeaders } from './canonical-headers.js';

/** The parts of Node's `ServerResponse` (Express's `res`, Fastify's `reply.raw`) that {@link writeNodeAnswer} uses. */
export interface NodeResponseLike {
  statusCode: number;
  removeHeader(name: string): void;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

/**
 * Writes an answer of a drops-auth route, or a `DropsAuthError` (one too), to a Node response as
 * its exact bytes: its status, its headers in the canonical order of {@link canonicalHeaders}
 * (any copy set earlier removed first) and its body, nothing added by a framework. Node sends no
 * body to a `HEAD`.
 *
 * Pass the request's principal once it is authenticated (what `createKeyRoutes` hands to
 * `authenticated`, or what your middleware set): an answer to an API key expiring within 7 days
 * then carries `Drops-Key-Expiration`, a success and an error after authentication alike.
 *
 * @param res - Node's response.
 * @param answer - the route's answer, or a `DropsAuthError`.
 * @param principal - who made the request; omit it (or `null`) before authentication.
 *
 * @example
 * ```ts
 * import { writeNodeAnswer } from '@drops/auth/adapter';
 * import { DropsAuthError, type Principal } from '@drops/auth';
 *
 * let principal: Principal | undefined;
 * try {
 *   const answer = await routes.handle({ ...keyRouteRequest, authenticated: (p) => (principal = p) });
 *   writeNodeAnswer(res, answer, principal);
 * } catch (error) {
 *   if (error instanceof DropsAuthError) return writeNodeAnswer(res, error, principal);
 *   throw error;
 * }
 * ```
 */
export function writeNodeAnswer(res: NodeResponseLike, answer: RouteAnswer, principal?: Principal | null): void {
  const headers = canonicalHeaders(answer, principal);
  for (const [name] of headers) res.removeHeader(name);
  res.statusCode = answer.status;
  for (const [name, value] of headers) res.setHeader(name, value);
  res.end(answer.bodyText);
}
