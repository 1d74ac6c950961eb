import { SessionEndedError, type Session } from './session.js';

/** A key in `GET /keys`. Never the secret. */
export interface KeyInfo {
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

/** The `201` of `POST /keys`: the only time the secret (`apiKey`) is seen. */
export interface MintedKey {
  readonly apiKey: string;
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: string;
}

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
  mintKey(name: string): Promise<MintedKey>;
  revokeKey(id: string): Promise<void>;
  listDrops(): Promise<DropInfo[]>;
}

export function createApi(session: Session, baseUrl: string): Api {
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
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
      session.end('expired');
      throw new SessionEndedError('expired');
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
  return {
    listKeys: async () => ((await (await call('GET', '/keys')).json()) as { keys: KeyInfo[] }).keys,
    mintKey: async (name) => (await (await call('POST', '/keys', name === '' ? undefined : { name })).json()) as MintedKey,
    revokeKey: async (id) => void (await call('DELETE', `/keys/${encodeURIComponent(id)}`)),
    listDrops: async () => ((await (await call('GET', '/drops')).json()) as { drops: DropInfo[] }).drops,
  };
}
