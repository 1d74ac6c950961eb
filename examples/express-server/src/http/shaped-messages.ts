import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { prepareTimingSlot } from '../request-context.js';
import { prepareRouteSlots } from '../route-pattern.js';

/**
 * The key under which Express's router keeps the route pattern a request matched (router 2.3's
 * `lib/symbols.js`; it sets it on every routed request). It is a private symbol of the router copy
 * Express loads, so it is read from there; `undefined` if a router lays its files out otherwise
 * (the shaped-messages test then names the property left undeclared).
 */
const ROUTER_MATCHED_ROUTE = ((): symbol | undefined => {
  try {
    const fromExpress = createRequire(createRequire(import.meta.url).resolve('express'));
    const { matchedRoute } = fromExpress('router/lib/symbols.js') as { matchedRoute?: unknown };
    return typeof matchedRoute === 'symbol' ? matchedRoute : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * Node's request class with every property that this app, and Express on the way, sets on a
 * request declared (as `undefined`) when the request is made. Express replaces the prototype of
 * every request and response with the app's own (`Object.setPrototypeOf` in `app.handle`), and
 * V8 adds a new property to such an object slowly: it finds no shared hidden-class transition
 * and makes a new one per object, about a microsecond per property added (bench/METHOD.md). A
 * property that already exists is a plain store. Nothing reads these before Express or the app
 * sets them, so `undefined` here is what an absent property read as.
 */
export class AppRequest extends IncomingMessage {
  constructor(socket: Socket) {
    super(socket);
    const self = this as unknown as Record<string, unknown>;
    // Set by Express on every request (`res` before it swaps the prototype, so cheap, but declared
    // all the same), by its router (the errors it has seen: on every refused request), by parseurl.
    self['res'] = undefined;
    self['next'] = undefined;
    self['baseUrl'] = undefined;
    self['originalUrl'] = undefined;
    self['params'] = undefined;
    self['_parsedUrl'] = undefined;
    (this as unknown as Record<symbol, unknown>)[Symbol.for('router.tracing.publishedErrors')] = undefined;
    if (ROUTER_MATCHED_ROUTE !== undefined) (this as unknown as Record<symbol, unknown>)[ROUTER_MATCHED_ROUTE] = undefined;
    // Node's count of listeners, which a request inherits (0) until its first listener: Node
    // itself adds one on every request (when the response ends).
    self['_eventsCount'] = 0;
    // Set by this app: the request id, the principal (drops-auth), the route that answered.
    self['id'] = undefined;
    self['auth'] = undefined;
    prepareRouteSlots(this);
  }
}

/** Node's response class, shaped like {@link AppRequest}: what Express and this app set on a response. */
export class AppResponse extends ServerResponse {
  // Node passes (req, options); its types declare only `req`.
  constructor(...args: unknown[]) {
    super(...(args as [IncomingMessage]));
    const self = this as unknown as Record<string, unknown>;
    // `locals` by Express; the status by `res.status()` or `writeHead` (200 until then, as the
    // prototype's default reads).
    self['locals'] = undefined;
    self['statusCode'] = 200;
    self['statusMessage'] = undefined;
    prepareTimingSlot(this);
  }
}

/** `http.createServer` options that make every request and response an {@link AppRequest} and an {@link AppResponse}. */
export const SHAPED_MESSAGES: ServerOptions = {
  IncomingMessage: AppRequest,
  ServerResponse: AppResponse as unknown as typeof ServerResponse,
};
