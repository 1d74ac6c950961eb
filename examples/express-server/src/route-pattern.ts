import type { IncomingMessage } from 'node:http';

const ROUTE = Symbol('route');
const ROUTE_BASE = Symbol('routeBase');
type RoutedRequest = IncomingMessage & { baseUrl?: string; [ROUTE]?: { path?: unknown }; [ROUTE_BASE]?: string };

/**
 * Lets {@link routeOf} name the route that answered a request of this app. Express sets
 * `req.route` when a route matches, and resets `req.baseUrl` (the mount point) when an error
 * leaves a router: by the time an error handler answers, `/keys/:id` would read as `/:id`. So the
 * mount point is kept when the route is set, through an accessor on the app's request prototype
 * (`app.request`, installed once when the app is built; `req.route` itself reads as before).
 */
export function watchRoutes(requestPrototype: object): void {
  Object.defineProperty(requestPrototype, 'route', {
    configurable: true,
    get(this: RoutedRequest): unknown {
      return this[ROUTE];
    },
    set(this: RoutedRequest, route: { path?: unknown } | undefined) {
      this[ROUTE] = route;
      this[ROUTE_BASE] = this.baseUrl;
    },
  });
}

/** Declares the slots {@link watchRoutes} fills (see `AppRequest`). */
export function prepareRouteSlots(req: IncomingMessage): void {
  (req as RoutedRequest)[ROUTE] = undefined;
  (req as RoutedRequest)[ROUTE_BASE] = undefined;
}

/**
 * The route pattern that answered (`/keys/:id`), or `null` when no route did (a 404, or a refusal
 * answered before routing such as an account route family's 401). Built from the route's pattern
 * and the mount point it matched (this app's mount points are literal, so that is the declared
 * one up to case), never from the rest of the request's path: no client input, bounded labels.
 */
export function routeOf(req: IncomingMessage): string | null {
  const path = (req as RoutedRequest)[ROUTE]?.path;
  if (typeof path !== 'string') return null;
  // Routing ignores case (`/WhoAmI` is answered by `/whoami`): the mount point is lower-cased.
  const base = (req as RoutedRequest)[ROUTE_BASE];
  if (base === undefined || base === '') return path;
  const lower = base.toLowerCase();
  return path === '/' ? lower : lower + path;
}
