import { IncomingMessage } from 'node:http';
import type { Principal } from '@drops/auth';
import type { Request } from 'express';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /**
       * Who made the request: the principal after `requireAuth()`; the principal or `null` (an
       * anonymous request) after `optionalAuth()`; `undefined` on routes without drops auth.
       * The same as `ctx.state.auth` in `@drops/auth-koa`.
       */
      auth?: Principal | null;
    }
  }
}

/** Where `req.auth` keeps its value: a key of the request's `res.locals`, which Express makes per request. */
const PRINCIPAL = Symbol('drops-auth principal');
/** Set on the prototype that holds the `auth` accessor. */
const HAS_AUTH_ACCESSOR = Symbol('drops-auth req.auth accessor');

/**
 * Sets `req.auth`. Express replaces every request's prototype with the app's own, and V8 adds a
 * property to such an object slowly: a new hidden class per request (about 30 000 instructions of
 * a 620 000-instruction Express request, bench/METHOD.md). So `req.auth` is an accessor on
 * Express's own request prototype (`express.request`, the one every app's and mounted app's
 * `request` inherits from) that keeps the value in `res.locals`, an object Express makes for
 * every request; setting it adds no property to the request. A request that already has an own
 * `auth` (a server whose request class declares it) or that Express did not prepare gets a plain
 * property, as before. Reading and writing `req.auth` behave as for a plain property.
 * @internal
 */
export function setRequestAuth(req: Request, principal: Principal | null): void {
  if ((req as unknown as Record<symbol, unknown>)[HAS_AUTH_ACCESSOR] !== true) installAuthAccessor(req);
  req.auth = principal;
}

/** Defines the accessor on `express.request` of the app `req` went through: the prototype just above Node's. */
function installAuthAccessor(req: Request): void {
  let proto: object | null = Object.getPrototypeOf(req);
  if (proto === IncomingMessage.prototype) return;
  while (proto !== null && Object.getPrototypeOf(proto) !== IncomingMessage.prototype) proto = Object.getPrototypeOf(proto);
  if (proto === null || Object.hasOwn(proto, 'auth')) return;
  Object.defineProperty(proto, 'auth', {
    configurable: true,
    enumerable: false,
    get(this: Request): Principal | null | undefined {
      const locals = this.res?.locals as Record<symbol, Principal | null | undefined> | undefined;
      return locals?.[PRINCIPAL];
    },
    set(this: Request, value: Principal | null | undefined) {
      const locals = this.res?.locals as Record<symbol, unknown> | undefined;
      if (locals !== undefined && locals !== null) locals[PRINCIPAL] = value;
      else Object.defineProperty(this, 'auth', { value, writable: true, enumerable: true, configurable: true });
    },
  });
  Object.defineProperty(proto, HAS_AUTH_ACCESSOR, { value: true });
}
