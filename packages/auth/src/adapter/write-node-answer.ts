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
 * @example
 * ```ts
 * import { writeNodeAnswer } from '@drops/auth/adapter';
 * import { DropsAuthError } from '@drops/auth';
 *
 * try {
 *   await authenticator.authenticate(authorizationOfNodeRequest(req));
 * } catch (error) {
 *   if (error instanceof DropsAuthError) return writeNodeAnswer(res, error);
 *   throw error;
 * }
 * ```
 */
export function writeNodeAnswer(res: NodeResponseLike, answer: RouteAnswer): void {
  const headers = canonicalHeaders(answer);
  for (const [name] of headers) res.removeHeader(name);
  res.statusCode = answer.status;
  for (const [name, value] of headers) res.setHeader(name, value);
  res.end(answer.bodyText);
}
