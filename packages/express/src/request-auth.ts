import type { Principal } from '@drops/auth';

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
