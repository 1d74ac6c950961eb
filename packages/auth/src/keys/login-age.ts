import type { Principal } from '../authenticator/principal.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';

/**
 * Refuses, with the uniform 401 (reason `login_too_old`), an ID token whose `auth_time` is missing
 * or more than `maxAgeSeconds` before `nowMs`: minting then needs a fresh sign-in, so a stolen
 * long-lived session cannot mint keys.
 */
export function assertRecentLogin(principal: Principal & { credential: 'id_token' }, maxAgeSeconds: number, nowMs: number): void {
  const authTime = principal.claims.auth_time;
  if (typeof authTime !== 'number' || !Number.isFinite(authTime)) {
    throw new UnauthenticatedError('login_too_old', 'the ID token has no auth_time');
  }
  if (nowMs / 1000 - authTime > maxAgeSeconds) {
    throw new UnauthenticatedError('login_too_old', `signed in more than ${maxAgeSeconds} s ago`);
  }
}
