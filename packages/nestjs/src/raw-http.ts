import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Node's request under a framework's: Express's `req` is one, Fastify's `request.raw` is one.
 * @internal
 */
export function rawRequestOf(request: unknown): IncomingMessage {
  const raw = (request as { raw?: unknown }).raw;
  return (raw ?? request) as IncomingMessage;
}

/**
 * Node's response under a framework's: Express's `res` is one; Fastify's `reply.raw` is one, and
 * the reply is hijacked first so that Fastify sends nothing of its own after it.
 * @internal
 */
export function rawResponseOf(response: unknown): ServerResponse {
  const reply = response as { raw?: unknown; hijack?: () => unknown };
  if (reply.raw !== undefined && typeof reply.hijack === 'function') {
    reply.hijack();
    return reply.raw as ServerResponse;
  }
  return response as ServerResponse;
}

/** The client's address as the framework knows it (Express's and Fastify's `ip` follow their proxy settings). @internal */
export function clientIpOf(request: unknown): string | null {
  const ip = (request as { ip?: unknown }).ip;
  return typeof ip === 'string' && ip !== '' ? ip : null;
}
