import { firebase, type IdentityProviderSettings } from './presets.js';

/** The environment variables {@link identityProviderFromEnv} reads. */
export type IdentityProviderEnv = Readonly<Record<string, string | undefined>>;

const GENERIC = ['AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL'] as const;

/**
 * The identity provider a service is configured with, from its environment:
 *
 * - `FIREBASE_PROJECT_ID`: the {@link firebase} preset;
 * - `AUTH_ISSUER` + `AUTH_AUDIENCE` (comma-separated for several) + `AUTH_JWKS_URL`: any RS256
 *   provider;
 * - neither: `null` (the caller decides: refuse to start, or run a development provider).
 *
 * Both forms at once, or only some of the `AUTH_*` variables, is a `TypeError` naming what is
 * wrong, so a half-configured service fails at start-up rather than on its first sign-in.
 *
 * @example
 * ```ts
 * const settings = identityProviderFromEnv(process.env);
 * if (settings === null) throw new Error('configure an identity provider');
 * const verifier = createIdTokenVerifier(settings);
 * ```
 */
export function identityProviderFromEnv(env: IdentityProviderEnv): IdentityProviderSettings | null {
  const projectId = nonEmpty(env['FIREBASE_PROJECT_ID']);
  const present = GENERIC.filter((name) => nonEmpty(env[name]) !== undefined);
  if (projectId !== undefined && present.length > 0) {
    throw new TypeError(`set either FIREBASE_PROJECT_ID or ${GENERIC.join('/')}, not both`);
  }
  if (projectId !== undefined) return firebase({ projectId });
  if (present.length === 0) return null;
  if (present.length < GENERIC.length) {
    const missing = GENERIC.filter((name) => !present.includes(name));
    throw new TypeError(`${GENERIC.join(', ')} go together; missing ${missing.join(', ')}`);
  }
  const audience = (env['AUTH_AUDIENCE'] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
  if (audience.length === 0) throw new TypeError('AUTH_AUDIENCE must name at least one audience');
  return {
    issuer: env['AUTH_ISSUER'] as string,
    audience: audience.length === 1 ? (audience[0] as string) : audience,
    jwksUrl: env['AUTH_JWKS_URL'] as string,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
