import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { looksLikeSecret } from './logger.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id, echoed as `X-Request-Id`: the caller's own when it is sane, else a new UUID.
 * An id the log scrubber would redact (a credential pasted or injected there) is refused: it
 * would be echoed in the response and written to every log line of the request.
 */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) && !looksLikeSecret(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}
