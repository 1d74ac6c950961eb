import * as z from 'zod/mini';
import type { Principal } from '../authenticator/principal.js';
import { systemClock, type Clock } from '../clock.js';
import { lazySchema, parseOptions } from '../options/parse-options.js';

/** The `iss` and `aud` of a session principal's claims: never a real provider's. */
export const SESSION_ISSUER = 'urn:drops:session';

/** A user your app has signed in itself (cookie sessions, its own password or passkey check). */
export interface SignedInSession {
  /** The account the key belongs to. */
  readonly accountId: string;
  /** Who signed in (1 to 128 characters): the `actor` of the key's `minted` event. */
  readonly userId: string;
  /**
   * When the user last proved who they are (entered a password, used a passkey): not when the
   * cookie was last refreshed. `maxAuthAgeSeconds` is checked against it.
   */
  readonly signedInAt: Date;
}

const schema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    accountId: z.string().check(z.minLength(1), z.maxLength(256)),
    userId: z.string().check(z.minLength(1), z.maxLength(128)),
    signedInAt: z.date(),
  }),
);

/**
 * The principal of a user your app authenticated with its own sign-in (a cookie session), for
 * `KeyManager.mint`: the one way such an app mints keys, under the same rules as an ID token,
 * including the recent-login rule (`maxAuthAgeSeconds`, against `signedInAt`). Call it only in a
 * route that has checked the session itself (and its CSRF protection); it takes no `Principal`,
 * so an API key can never become one: an API key principal still gets the uniform 401 from `mint`.
 *
 * The principal is an `id_token` principal whose claims say where they came from: `iss` and `aud`
 * are `urn:drops:session` (no real provider's), `sub` is `userId`, `auth_time` is `signedInAt`,
 * `iat` now, `exp` five minutes on. A bad field is a `TypeError`, so is a sign-in in the future.
 *
 * @example
 * ```ts
 * app.post('/keys', requireSameOrigin, async (req, res) => {
 *   const session = await sessions.get(req.cookies.sid); // your sign-in, checked by you
 *   if (!session) return res.status(401).end();
 *   const principal = sessionPrincipal({ accountId: session.accountId, userId: session.userId, signedInAt: session.signedInAt });
 *   res.status(201).json(await keys.mint(principal, req.body));
 * });
 * ```
 */
export function sessionPrincipal(session: SignedInSession, clock: Clock = systemClock): Principal & { credential: 'id_token' } {
  const { accountId, userId, signedInAt } = parseOptions(schema(), session, 'sessionPrincipal', 'session');
  const now = Math.floor(clock() / 1000);
  const authTime = Math.floor(signedInAt.getTime() / 1000);
  if (!Number.isFinite(authTime) || authTime > now) {
    throw new TypeError('sessionPrincipal: session.signedInAt must be a valid time, not in the future');
  }
  const claims = Object.freeze({ iss: SESSION_ISSUER, aud: SESSION_ISSUER, sub: userId, iat: now, exp: now + 300, auth_time: authTime });
  return Object.freeze({ accountId, credential: 'id_token', claims });
}
