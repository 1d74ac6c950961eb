import { ENV } from '../settings.js';

// The rule itself is the shipped development identity provider's: the same values, the same refusal.
export { devIdentityAllowed } from '@drops/auth/testing';

/** The generic identity provider's three variables, for refusal messages. */
export const OIDC_VARIABLES = `${ENV.authIssuer}, ${ENV.authAudience} and ${ENV.authJwksUrl}`;

/** What to set instead, for the refusal message. */
const IDENTITY_VARIABLES_HINT = `set ${ENV.firebaseProjectId}, or ${OIDC_VARIABLES}`;

/** The refusal, naming the value seen (quoted, so a trailing space shows) and what to set. */
export function devIdentityRefusal(nodeEnv: string | undefined): string {
  return (
    `${ENV.nodeEnv}=${JSON.stringify(nodeEnv)} needs an identity provider: ${IDENTITY_VARIABLES_HINT} ` +
    `(the development identity provider runs only when ${ENV.nodeEnv} is unset, "development" or "test")`
  );
}

/**
 * The refusal of the development identity provider on PostgreSQL: `POST /dev/token` mints ID
 * tokens for any name, and a PostgreSQL database may be shared with real instances. Its accounts
 * never meet a real provider's (issuer-accounts.ts), but it runs on a database only when
 * `devIdentityProvider` says this database is for development.
 */
export function devIdentityOnDatabaseRefusal(): string {
  return (
    `${ENV.databaseUrl} with no identity provider would run the development identity provider (ID tokens for any name) on that database: ` +
    `${IDENTITY_VARIABLES_HINT}, or set ${ENV.devIdentityProvider}=on if the database is for development only`
  );
}
