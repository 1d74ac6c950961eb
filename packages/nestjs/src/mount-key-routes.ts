import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';
import type { DropsAuthContext } from './drops-auth-options.js';
import { clientIpOf } from './raw-http.js';
import { isUnderKeysPath, serveKeyRequest } from './serve-key-request.js';
import { leakedKeyRouteOf, serveLeakedKeyRequest } from './serve-leaked-key-request.js';

type Next = (error?: unknown) => void;

interface FastifyLike {
  addHook(name: 'onRequest', hook: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<void>): unknown;
}
interface FastifyRequestLike {
  readonly url: string;
  readonly raw: IncomingMessage;
  readonly ip?: string;
}
interface FastifyReplyLike {
  readonly raw: ServerResponse;
  hijack(): unknown;
}

/**
 * Mounts the `/keys` routes (and the leaked-key routes, when configured) on the HTTP server under
 * Nest, ahead of Nest's body parsers and router, once: on Express a first middleware, on Fastify an
 * `onRequest` hook. Every method and
 * path under the keys path reaches the core, which authenticates first (without a credential the
 * uniform 401, never Nest's 404), and a body is judged only after the credential.
 *
 * Returns `false` when there is no HTTP server yet (a module compiled by `@nestjs/testing` before
 * `createNestApplication()`); call again once there is.
 * @internal
 */
export function mountKeyRoutes(host: HttpAdapterHost, context: DropsAuthContext): boolean {
  const mount = context.keyRoutes;
  const leaked = context.leakedKeyRoutes;
  if (mount === undefined && leaked === undefined) return true;
  const adapter = host.httpAdapter;
  if (adapter === undefined || adapter === null) return false;

  /** What answers a request at `url`: the /keys core, a leaked-key route, or nothing of drops'. */
  const serverFor = (url: string): Serve | undefined => {
    if (mount !== undefined && isUnderKeysPath(url, mount.path)) {
      return (frameworkRequest, req, res, ip) => serveKeyRequest(context, mount, frameworkRequest, req, res, ip);
    }
    const route = leaked === undefined ? undefined : leakedKeyRouteOf(leaked, url);
    if (route === undefined) return undefined;
    return (frameworkRequest, req, res, ip) => serveLeakedKeyRequest(context, route, frameworkRequest, req, res, ip);
  };

  const type = adapter.getType();
  if (type === 'fastify') {
    const fastify = adapter.getInstance<FastifyLike>();
    fastify.addHook('onRequest', async (request, reply) => {
      const serve = serverFor(request.url);
      if (serve === undefined) return;
      reply.hijack();
      try {
        await serve(request, request.raw, reply.raw, clientIpOf(request));
      } catch {
        // Hijacked: Fastify answers nothing more, so an unexpected failure is a bare 500 here.
        if (!reply.raw.headersSent) reply.raw.statusCode = 500;
        reply.raw.end();
      }
    });
    return true;
  }
  if (type === 'express') {
    adapter.use((req: IncomingMessage, res: ServerResponse, next: Next) => {
      const serve = serverFor(req.url ?? '/');
      if (serve === undefined) return next();
      serve(req, req, res, clientIpOf(req)).catch(next);
    });
    return true;
  }
  throw new TypeError(`DropsAuthModule: the drops routes run on @nestjs/platform-express or @nestjs/platform-fastify, not "${type}"`);
}

type Serve = (frameworkRequest: unknown, req: IncomingMessage, res: ServerResponse, ip: string | null) => Promise<void>;
