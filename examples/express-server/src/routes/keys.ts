import type { Router } from 'express';
import type { RouteContext } from '../app-deps.js';

/**
 * `/keys`: `POST /keys` (ID token only; a recent sign-in under `MINT_MAX_AUTH_AGE_SECONDS`),
 * `GET /keys`, `GET /keys/events`, `DELETE /keys/:id`, `POST /keys/:id/roll` and `DELETE /keys` (ID
 * token only), from `@drops/auth-express`, authenticated
 * for every method and path before routing.
 */
export function keysRoutes(ctx: RouteContext): Router {
  return ctx.auth.keysRouter();
}
