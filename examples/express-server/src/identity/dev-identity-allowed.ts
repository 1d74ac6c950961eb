/**
 * The `NODE_ENV` values under which the development identity provider may run when no provider is
 * configured: unset (or empty, which this server treats as unset), `development` and `test`.
 * Exact strings, compared untrimmed: `production `, `PRODUCTION`, `prod`, `staging` or a lone
 * space are not development, so the server refuses to start rather than hand out tokens for any
 * name. (It fails closed: an unexpected value is treated as production.)
 */
export const DEV_IDENTITY_NODE_ENVS: readonly string[] = ['', 'development', 'test'];

/** What to set instead, for the refusal message. */
export const IDENTITY_VARIABLES_HINT = 'set FIREBASE_PROJECT_ID, or AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL';

/** Whether `nodeEnv` (the raw `NODE_ENV`, `undefined` when unset) allows the development identity provider. */
export function devIdentityAllowed(nodeEnv: string | undefined): boolean {
  return nodeEnv === undefined || DEV_IDENTITY_NODE_ENVS.includes(nodeEnv);
}

/** The refusal, naming the value seen (quoted, so a trailing space shows) and what to set. */
export function devIdentityRefusal(nodeEnv: string | undefined): string {
  return (
    `NODE_ENV=${JSON.stringify(nodeEnv)} needs an identity provider: ${IDENTITY_VARIABLES_HINT} ` +
    '(the development identity provider runs only when NODE_ENV is unset, "development" or "test")'
  );
}

/**
 * The refusal of the development identity provider beside `DATABASE_URL`: `POST /dev/token` mints
 * ID tokens for any name, and a PostgreSQL database may be shared with real instances (issue 21).
 * Its accounts never meet a real provider's (issuer-accounts.ts), but it runs on a database only
 * when `DEV_IDENTITY_PROVIDER=on` says this database is for development.
 */
export function devIdentityOnDatabaseRefusal(): string {
  return (
    `DATABASE_URL with no identity provider would run the development identity provider (ID tokens for any name) on that database: ` +
    `${IDENTITY_VARIABLES_HINT}, or set DEV_IDENTITY_PROVIDER=on if the database is for development only`
  );
}
