import { DropsAuthError, MethodNotAllowedError, type KeyManager, type LeakedKeysOptions } from '@drops/auth';
import {
  createLeakedKeyRoutes,
  GITHUB_SECRET_SCANNING_PATH,
  REVOKE_CREDENTIALS_PATH,
  type LeakedKeyRequest,
  type RouteAnswer,
} from '@drops/auth/adapter';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerError, type OnError } from './on-error.js';
import { pluginOptions } from './plugin-options.js';
import { leaveBodiesUnread, readKeysBody, readRawBody } from './read-body.js';
import { requestInfoOf } from './request-info.js';
import { respondWithAnswer } from './respond-with-error.js';

/** Options of `leakedKeysRoutes` besides Fastify's own (`prefix`, …): see `LeakedKeysOptions` of `@drops/auth`. */
export type LeakedKeysRoutesOptions = LeakedKeysOptions;

const WHERE = 'leakedKeysRoutes';

/**
 * `POST /credentials/revoke` and `POST /secret-scanning/github` as a Fastify plugin (see
 * `DropsAuthFastify.leakedKeysRoutes`), their 405s included. Bodies are read by the routes
 * themselves (GitHub signs the raw bytes), never by the app's parsers.
 * @internal Reached through `dropsAuth(...).leakedKeysRoutes`.
 */
export function leakedKeysRoutesPlugin(keys: KeyManager | undefined, onError: OnError | undefined) {
  return async function leakedKeysRoutes(instance: FastifyInstance, options: LeakedKeysRoutesOptions & { prefix?: string }): Promise<void> {
    if (keys === undefined) throw new TypeError(`${WHERE}: pass keys: createKeyManager({ keyStore }) to dropsAuth()`);
    const routes = createLeakedKeyRoutes(keys, pluginOptions(options), WHERE);
    leaveBodiesUnread(instance);

    const requestOf = (request: FastifyRequest): LeakedKeyRequest => ({
      headers: request.raw.headers,
      info: requestInfoOf(request),
      readBytes: (limit) => readRawBody(request, limit),
      readJson: (limit, example) => readKeysBody(request, limit, example),
    });
    const serve =
      (handle: (request: LeakedKeyRequest) => Promise<RouteAnswer>) =>
      async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
        try {
          return respondWithAnswer(reply, await handle(requestOf(request)));
        } catch (error) {
          if (error instanceof DropsAuthError) return answerError(request, reply, error, onError);
          throw error;
        }
      };
    // One route for every method Fastify routes (`supportedMethods` is Fastify 5 only): POST is
    // served, any other method is the 405.
    const route = (path: string, handle: (request: LeakedKeyRequest) => Promise<RouteAnswer>) => {
      const post = serve(handle);
      instance.all(path, async (request, reply) =>
        request.method === 'POST' ? post(request, reply) : answerError(request, reply, new MethodNotAllowedError(['POST']), onError),
      );
    };

    route(REVOKE_CREDENTIALS_PATH, routes.revokeCredentials);
    if (routes.githubSecretScanning !== null) route(GITHUB_SECRET_SCANNING_PATH, routes.githubSecretScanning);
  };
}
