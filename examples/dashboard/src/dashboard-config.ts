/** Sign-in methods the page offers in Firebase mode. */
export type FirebaseSignInProvider = 'google' | 'github' | 'apple';

/** The Firebase Web SDK configuration: public values from the Firebase console, not secrets. */
export interface FirebaseWebConfig {
  readonly apiKey: string;
  readonly authDomain: string;
  readonly projectId: string;
}

/**
 * What the page reads from `GET /dashboard/config.json`: how people sign in, and how recent a
 * sign-in minting needs.
 *
 * - `dev`: the server's development identity provider (`POST /dev/token` with a name).
 * - `firebase`: a Firebase Authentication popup with the listed providers.
 * - `unavailable`: the page cannot sign anyone in here; `reason` says why (shown to the person).
 * - `mintMaxAuthAgeSeconds` (only when the server sets `MINT_MAX_AUTH_AGE_SECONDS`): minting needs
 *   a sign-in at most this old, so a refused mint asks the person to sign in again.
 */
export type DashboardConfig = DashboardSignIn & { readonly mintMaxAuthAgeSeconds?: number };

/** How people sign in: the `identity` part of {@link DashboardConfig}. */
export type DashboardSignIn =
  | { readonly identity: { readonly mode: 'dev' } }
  | {
      readonly identity: {
        readonly mode: 'firebase';
        readonly firebase: FirebaseWebConfig;
        readonly providers: readonly FirebaseSignInProvider[];
      };
    }
  | { readonly identity: { readonly mode: 'unavailable'; readonly reason: string } };

/** The server's identity provider, as the reference server's `config.identity` describes it. */
export type ServerIdentity =
  | { readonly kind: 'dev' }
  | { readonly kind: 'firebase'; readonly projectId: string }
  | { readonly kind: 'oidc' };

const PROVIDERS: readonly FirebaseSignInProvider[] = ['google', 'github', 'apple'];

const isProvider = (value: string): value is FirebaseSignInProvider => (PROVIDERS as readonly string[]).includes(value);

/** What the server enforces that the page must know about. */
export interface DashboardServerRules {
  /** The server's `MINT_MAX_AUTH_AGE_SECONDS`; `null` or absent: none. */
  readonly mintMaxAuthAgeSeconds?: number | null;
}

/**
 * Builds the page's configuration from the server's identity provider, the environment and the
 * server's rules. Call it once at startup and serve the result as JSON at `/dashboard/config.json`.
 *
 * Environment read in Firebase mode:
 *
 * | var | meaning | default |
 * |---|---|---|
 * | `FIREBASE_API_KEY` | the Web API key of the Firebase project (public, not a secret) | - (without it the page says sign-in is not configured) |
 * | `FIREBASE_AUTH_DOMAIN` | the domain that hosts the sign-in popup | `<projectId>.firebaseapp.com` |
 * | `FIREBASE_SIGN_IN_PROVIDERS` | comma-separated subset of `google,github,apple` | `google,github,apple` |
 *
 * A generic RS256 identity provider (`oidc`) has no sign-in flow in this page: it answers
 * `unavailable`, and the page says so.
 *
 * @throws TypeError when `FIREBASE_SIGN_IN_PROVIDERS` names an unknown provider or none.
 * @example
 * ```ts
 * const dashboard = dashboardConfig(config.identity, process.env, { mintMaxAuthAgeSeconds: 600 });
 * app.get('/dashboard/config.json', (_req, res) => res.set('cache-control', 'no-store').json(dashboard));
 * ```
 */
export function dashboardConfig(
  identity: ServerIdentity,
  env: Readonly<Record<string, string | undefined>> = {},
  rules: DashboardServerRules = {},
): DashboardConfig {
  const maxAge = rules.mintMaxAuthAgeSeconds ?? null;
  if (maxAge !== null && !(Number.isSafeInteger(maxAge) && maxAge > 0)) {
    throw new TypeError('dashboardConfig: mintMaxAuthAgeSeconds must be a positive whole number of seconds');
  }
  const signIn = dashboardSignIn(identity, env);
  return maxAge === null ? signIn : { ...signIn, mintMaxAuthAgeSeconds: maxAge };
}

function dashboardSignIn(identity: ServerIdentity, env: Readonly<Record<string, string | undefined>>): DashboardSignIn {
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  switch (identity.kind) {
    case 'dev':
      return { identity: { mode: 'dev' } };
    case 'oidc':
      return {
        identity: {
          mode: 'unavailable',
          reason:
            'This server verifies ID tokens from a generic identity provider; this dashboard signs in only through Firebase or the development provider.',
        },
      };
    case 'firebase': {
      const list = (value('FIREBASE_SIGN_IN_PROVIDERS') ?? PROVIDERS.join(','))
        .split(',')
        .map((p) => p.trim().toLowerCase())
        .filter((p) => p !== '');
      const unknown = list.filter((p) => !isProvider(p));
      if (unknown.length > 0 || list.length === 0) {
        throw new TypeError(`FIREBASE_SIGN_IN_PROVIDERS: use a comma-separated subset of ${PROVIDERS.join(',')}`);
      }
      const apiKey = value('FIREBASE_API_KEY');
      if (apiKey === undefined) {
        return {
          identity: {
            mode: 'unavailable',
            reason: 'Firebase sign-in is not configured on this server: set FIREBASE_API_KEY (see docs/dashboard.md).',
          },
        };
      }
      return {
        identity: {
          mode: 'firebase',
          firebase: {
            apiKey,
            authDomain: value('FIREBASE_AUTH_DOMAIN') ?? `${identity.projectId}.firebaseapp.com`,
            projectId: identity.projectId,
          },
          providers: [...new Set(list.filter(isProvider))],
        },
      };
    }
  }
}
