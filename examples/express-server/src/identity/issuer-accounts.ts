import type { IdTokenClaims } from '@drops/auth';

/**
 * Every account of the development identity provider is `dev:<sub>`: a database shared with a real
 * provider's instances (the `devIdentityProvider` setting) holds both, and `POST /dev/token` mints any
 * name, so its accounts must never be a real provider's (issue 21). A real provider's token whose
 * `sub` starts with `dev:` is refused (`resolveAccount` returns `null`: the uniform 401), so the
 * two namespaces cannot overlap, whatever either side calls its users.
 */
export const DEV_ACCOUNT_PREFIX = 'dev:';

/** The account of a development token's subject. */
export function devAccountOf(sub: string): string {
  return `${DEV_ACCOUNT_PREFIX}${sub}`;
}

/** `resolveAccount` for the development identity provider. */
export const resolveDevAccount = (claims: IdTokenClaims): string => devAccountOf(claims.sub);

/** `resolveAccount` for a real provider: the `sub`, never one in the development namespace. */
export const resolveRealAccount = (claims: IdTokenClaims): string | null => (claims.sub.startsWith(DEV_ACCOUNT_PREFIX) ? null : claims.sub);
