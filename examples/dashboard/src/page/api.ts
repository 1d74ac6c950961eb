import { SessionEndedError, type Session, type SessionEndReason } from './session.js';

/** A key in `GET /keys`. Never the secret. */
export interface KeyInfo {
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  /** When the key stops authenticating (RFC 3339); `null`: never. */
  readonly expiresAt: string | null;
}

/** The `201` of `POST /keys`: the only time the secret (`apiKey`) is seen. */
export interface MintedKey {
  readonly apiKey: string;
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

/** The `201` of `POST /keys/<id>/roll`: the new key (its secret seen once), and the id of the key it replaces. */
export interface RolledKey extends MintedKey {
  readonly replaces: string;
}

/** What a mint asks for: a name (`''`: none) and an expiry (RFC 3339; `null`: never). */
export interface MintRequest {
  readonly name: string;
  readonly expiresAt: string | null;
}

/** What happened to a key. */
export type KeyEventType = 'minted' | 'revoked' | 'first_used' | 'expired' | 'rolled' | 'sessions_revoked';

/** How it happened: the API, revoke by value, GitHub secret scanning, an operator. */
export type KeyEventSource = 'api' | 'revoke_by_value' | 'github_secret_scanning' | 'operator';

/** An event in `GET /keys/events`. Never a secret. */
export interface KeyEventInfo {
  readonly type: KeyEventType;
  readonly keyId: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly at: string;
  readonly source: KeyEventSource;
  /** The ID token's subject, or the id of the key that acted; `null` when no credential acted. */
  readonly actor: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** Where the key was found (secret scanning), when known. */
  readonly url?: string;
  /** On a `'rolled'` event: the id of the key that replaced this one. */
  readonly rolledTo?: string;
  /** On the `'minted'` event of a key a roll minted: the id of the key it replaced. */
  readonly replaces?: string;
}

/** A page of `GET /keys/events`, newest first; `next` is the cursor of the older ones. */
export interface KeyEventPage {
  readonly events: KeyEventInfo[];
  readonly next: string | null;
}

/** Events asked for at a time. */
const EVENTS_PAGE_SIZE = 20;

/** A drop in `GET /drops`. */
export interface DropInfo {
  readonly slug: string;
  readonly url: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly expiresAt: string | null;
  readonly size: number;
  readonly contentType: string;
}

/** The API refused a request for a reason other than authentication; `message` is for people. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The account API, called with the session's ID token. A `401` ends the session. */
export interface Api {
  listKeys(): Promise<KeyInfo[]>;
  /** The account's key events, newest first, from `cursor` (a previous page's `next`). */
  listEvents(cursor?: string): Promise<KeyEventPage>;
  /**
   * A `401` here ends the session as `sign-in-again` when the server needs a recent sign-in to
   * mint (`mintNeedsRecentSignIn`): the token still works elsewhere, the login is too old.
   */
  mintKey(request: MintRequest): Promise<MintedKey>;
  revokeKey(id: string): Promise<void>;
  /** Mints the replacement of key `id`; the old key keeps working `graceSeconds` more. */
  rollKey(id: string, graceSeconds: number): Promise<RolledKey>;
  /** Revokes every active key of the account; resolves how many. */
  revokeAllKeys(): Promise<number>;
  /** Signs the account out everywhere (`DELETE /sessions`); resolves the cut-off (RFC 3339). */
  signOutEverywhere(): Promise<string>;
  listDrops(): Promise<DropInfo[]>;
  /** Where key events are posted and how their deliveries stand; `null`: nowhere. */
  getWebhook(): Promise<WebhookEndpoint | null>;
  /** Sets where key events are posted; resolves the `whsec_` signing secret, the only time it is seen. */
  setWebhook(url: string): Promise<{ url: string; secret: string }>;
  removeWebhook(): Promise<void>;
}

/** The account's webhook as `GET /keys/webhook` shows it. */
export interface WebhookEndpoint {
  readonly url: string;
  readonly deliveries: {
    /** Not yet delivered, still being tried. */
    readonly pending: number;
    /** Out of retries: never sent again. */
    readonly failed: number;
    /** The newest failed attempt: when (ISO) and why (`answered 500`, `timed out`, …). */
    readonly lastFailure: { readonly at: string; readonly reason: string } | null;
  };
}

/** What the API client must know of the server's rules. */
export interface ApiOptions {
  /** The server refuses a mint from an old sign-in (`MINT_MAX_AUTH_AGE_SECONDS`). */
  readonly mintNeedsRecentSignIn?: boolean;
}

export function createApi(session: Session, baseUrl: string, options: ApiOptions = {}): Api {
  const call = async (method: string, path: string, body?: unknown, on401: SessionEndReason = 'expired'): Promise<Response> => {
    const token = await session.idToken();
    let res: Response;
    try {
      res = await fetch(new URL(path, baseUrl), {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
    }
    if (res.status === 401) {
      session.end(on401);
      throw new SessionEndedError(on401);
    }
    if (!res.ok) {
      const detail = await res
        .json()
        .then((b: unknown) => (typeof (b as { error?: unknown }).error === 'string' ? (b as { error: string }).error : null))
        .catch(() => null);
      const retry = res.status === 503 ? ' The service is unavailable for a moment; try again shortly.' : '';
      throw new ApiError(res.status, `The server answered ${res.status}${detail !== null ? `: ${detail}` : ''}.${retry}`);
    }
    return res;
  };
  // A roll mints too: both need a recent sign-in when the server says so.
  const on401ForMint: SessionEndReason = options.mintNeedsRecentSignIn === true ? 'sign-in-again' : 'expired';
  return {
    listKeys: async () => ((await (await call('GET', '/keys')).json()) as { keys: KeyInfo[] }).keys,
    listEvents: async (cursor) => {
      const query = new URLSearchParams({ limit: String(EVENTS_PAGE_SIZE), ...(cursor !== undefined ? { cursor } : {}) });
      return (await (await call('GET', `/keys/events?${query.toString()}`)).json()) as KeyEventPage;
    },
    mintKey: async ({ name, expiresAt }) => {
      const body = { ...(name === '' ? {} : { name }), ...(expiresAt === null ? {} : { expiresAt }) };
      return (await (await call('POST', '/keys', Object.keys(body).length === 0 ? undefined : body, on401ForMint)).json()) as MintedKey;
    },
    revokeKey: async (id) => void (await call('DELETE', `/keys/${encodeURIComponent(id)}`)),
    rollKey: async (id, graceSeconds) => {
      return (await (await call('POST', `/keys/${encodeURIComponent(id)}/roll`, { graceSeconds }, on401ForMint)).json()) as RolledKey;
    },
    revokeAllKeys: async () => ((await (await call('DELETE', '/keys')).json()) as { revoked: number }).revoked,
    signOutEverywhere: async () => ((await (await call('DELETE', '/sessions')).json()) as { tokensValidAfter: string }).tokensValidAfter,
    getWebhook: async () => {
      const webhook = (await (await call('GET', '/keys/webhook')).json()) as WebhookEndpoint | { url: null };
      return webhook.url === null ? null : webhook;
    },
    setWebhook: async (url) => (await (await call('PUT', '/keys/webhook', { url })).json()) as { url: string; secret: string },
    removeWebhook: async () => void (await call('DELETE', '/keys/webhook')),
    listDrops: async () => ((await (await call('GET', '/drops')).json()) as { drops: DropInfo[] }).drops,
  };
}
