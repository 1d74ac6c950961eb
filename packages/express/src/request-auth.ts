import type { Principal } from '@drops/auth';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /**
       * Who made the request, set by `requireAuth()` (always) and `optionalAuth()` (when a
       * credential was sent). `undefined` on routes without drops-auth middleware and on
       * anonymous requests through `optionalAuth()`.
       */
      auth?: Principal;
    }
  }
}

export {};
