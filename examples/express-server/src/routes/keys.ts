import type { Router } from 'express';
import type { RouteContext } from '../app-deps.js';

/**
 * The `/keys` routes (docs/reference-server.md), from `@drops/auth-express`, authenticated for
 * every method and path before routing.
 */
export function keysRoutes(ctx: RouteContext): Router {
  return ctx.auth.keysRouter();
}
