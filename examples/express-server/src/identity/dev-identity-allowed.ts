import { ENV } from '../settings.js';

/**
 * The `nodeEnv` values under which the development identity provider may run when no provider is
 * configured: unset (or empty, which this server treats as unset), `development` and `test`.
 * Exact strings, compared untrimmed: `production `, `PRODUCTION`, `prod`, `staging` or a lone
 * space are not development, so the server refuses to start rather than hand out tokens for any
 * name. (It fails closed: an unexpected value is treated as production.)
 */
export const DEV_IDENTITY_NODE_ENVS: readonly string[] = ['', 'development', 'test'];

/** The generic identity provider's three variables, for refusal messages. */
export const OIDC_VARIABLES = `${ENV.authIssuer}, ${ENV.authAudience} and ${ENV.authJwksUrl}`;

/** What to set instead, for the refusal message. */
const IDENTITY_VARIABLES_HINT = `set ${ENV.firebaseProjectId}, or ${OIDC_VARIABLES}`;

/** Whether `nodeEnv` (the raw value, `undefined` when unset) allows the development identity provider. */
export function devIdentityAllowed(nodeEnv: string | undefined): boolean {
  return nodeEnv === undefined || DEV_IDENTITY_NODE_ENVS.includes(nodeEnv);
}

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
