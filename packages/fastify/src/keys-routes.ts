import { DropsAuthError, type Authenticator, type KeyManager, type KeyRoutesOptions } from '@drops/auth';
import { authorizationOfNodeRequest, createKeyRoutes } from '@drops/auth/adapter';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import './drops-auth-request.js';
import { answerError, type OnError } from './on-error.js';
import { leaveBodiesUnread, readKeysBody } from './read-body.js';
import { pluginOptions } from './plugin-options.js';
import { requestInfoOf } from './request-info.js';
import { respondWithAnswer } from './respond-with-error.js';

/** Options of `keysRoutes` besides Fastify's own (`prefix`, `logLevel`, …): see `KeyRoutesOptions` of `@drops/auth`. */
export type KeysRoutesOptions = KeyRoutesOptions;

const WHERE = 'keysRoutes';

/** The path below the plugin's prefix, as sent (still percent-encoded; the core decodes a key id once). */
function pathBelow(request: FastifyRequest, prefix: string): string {
  const url = request.raw.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.slice(prefix.length);
}

function queryOf(request: FastifyRequest): URLSearchParams {
  const url = request.raw.url ?? '';
  const query = url.indexOf('?');
  return new URLSearchParams(query === -1 ? '' : url.slice(query + 1));
}

/**
 * The `/keys` routes of `createKeyRoutes` as a Fastify plugin (encapsulated: register it with a
 * `prefix`): every method on the prefix and every path under it goes to the core, which
 * authenticates first (without a credential the uniform 401, never a 404 or 405 that would reveal
 * what exists), then routes, then reads the body with its own parser.
 * @internal Reached through `dropsAuth(...).keysRoutes`.
 */
export function keysRoutesPlugin(authenticator: Authenticator, keys: KeyManager | undefined, onError: OnError | undefined) {
  return async function keysRoutes(instance: FastifyInstance, options: KeysRoutesOptions & { prefix?: string }): Promise<void> {
    if (keys === undefined) throw new TypeError(`${WHERE}: pass keys: createKeyManager({ keyStore }) to dropsAuth()`);
    const prefix = instance.prefix;
    if (prefix === '' || /[:*]/.test(prefix)) {
      throw new TypeError(`${WHERE}: register it with a fixed prefix, e.g. app.register(auth.keysRoutes, { prefix: '/keys' })`);
    }
    const routes = createKeyRoutes(authenticator, keys, pluginOptions(options), WHERE);
    leaveBodiesUnread(instance);

    async function handler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
      try {
        const answer = await routes.handle({
          method: request.method,
          path: pathBelow(request, prefix),
          query: queryOf(request),
          authorization: authorizationOfNodeRequest(request.raw),
          info: () => requestInfoOf(request),
          readJson: (limit) => readKeysBody(request, limit),
          // `respondWithError` writes an error after authentication with `request.auth` too (the expiry warning).
          authenticated: (principal) => ((request as { auth: unknown }).auth = principal),
        });
        return respondWithAnswer(reply, answer, request.auth);
      } catch (error) {
        if (error instanceof DropsAuthError) return answerError(request, reply, error, onError);
        throw error;
      }
    }

    // Every method Fastify routes, on the prefix itself and on every path under it.
    instance.all('/', handler);
    instance.all('/*', handler);
  };
}
