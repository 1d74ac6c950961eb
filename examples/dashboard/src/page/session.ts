/** A fresh ID token from the identity provider, and how long it lives. */
export interface IdentityGrant {
  readonly idToken: string;
  /** Lifetime from now, in milliseconds (measured locally, so clock skew does not matter). */
  readonly expiresInMs: number;
}

/** A signed-in person at an identity provider: the development one, or Firebase. */
export interface IdentitySource {
  /** What the page shows as "signed in as". */
  readonly accountLabel: string;
  /** A new ID token for the same person. */
  refresh(): Promise<IdentityGrant>;
  /** Ends the sign-in at the provider too, where there is one. */
  signOut(): Promise<void>;
}

/**
 * Why a session ended: it expired, the person signed out (here, or everywhere: `DELETE /sessions`),
 * or the server needs a more recent sign-in for what they asked (minting, under
 * `MINT_MAX_AUTH_AGE_SECONDS`).
 */
export type SessionEndReason = 'expired' | 'signed-out' | 'signed-out-everywhere' | 'sign-in-again';

const END_MESSAGES: Record<SessionEndReason, string> = {
  expired: 'the session expired',
  'signed-out': 'signed out',
  'signed-out-everywhere': 'signed out everywhere',
  'sign-in-again': 'a more recent sign-in is needed',
};

/** The session has ended: the page goes back to sign-in. */
export class SessionEndedError extends Error {
  constructor(readonly reason: SessionEndReason) {
    super(END_MESSAGES[reason]);
    this.name = 'SessionEndedError';
  }
}

export interface SessionOptions {
  /** Called once, when the session ends for any reason. */
  readonly onEnd: (reason: SessionEndReason) => void;
  /** Refresh this long before the token expires. Default 5 minutes. */
  readonly refreshMarginMs?: number;
  /** After a failed refresh, try again this much later while the token is still valid. Default 30 s. */
  readonly retryMs?: number;
  readonly now?: () => number;
}

/**
 * Holds the ID token in memory (a private field: never in storage, cookies or the DOM) and
 * refreshes it before it expires. When it cannot be refreshed in time, the session ends.
 */
export class Session {
  readonly #source: IdentitySource;
  readonly #onEnd: (reason: SessionEndReason) => void;
  readonly #margin: number;
  readonly #retry: number;
  readonly #now: () => number;
  #token: string | null;
  #expiresAt: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #refreshing: Promise<void> | null = null;
  #endedBy: SessionEndReason | null = null;

  constructor(source: IdentitySource, grant: IdentityGrant, options: SessionOptions) {
    this.#source = source;
    this.#onEnd = options.onEnd;
    this.#margin = options.refreshMarginMs ?? 5 * 60_000;
    this.#retry = options.retryMs ?? 30_000;
    this.#now = options.now ?? Date.now;
    this.#token = grant.idToken;
    this.#expiresAt = this.#now() + grant.expiresInMs;
    this.#schedule(this.#expiresAt - this.#margin);
  }

  get accountLabel(): string {
    return this.#source.accountLabel;
  }

  get ended(): boolean {
    return this.#endedBy !== null;
  }

  /** The current ID token, refreshed first when it is about to expire. */
  async idToken(): Promise<string> {
    if (this.#endedBy !== null) throw new SessionEndedError(this.#endedBy);
    if (this.#now() >= this.#expiresAt - this.#margin) await this.#refresh();
    if (this.#endedBy !== null || this.#token === null) throw new SessionEndedError(this.#endedBy ?? 'expired');
    return this.#token;
  }

  /** Ends the session (e.g. the API answered 401): forgets the token and calls `onEnd`. */
  end(reason: SessionEndReason): void {
    if (this.#endedBy !== null) return;
    this.#endedBy = reason;
    this.#token = null;
    clearTimeout(this.#timer);
    this.#onEnd(reason);
  }

  /** Signs out here and at the identity provider (`everywhere`: the server has refused every earlier sign-in). */
  async signOut(reason: 'signed-out' | 'signed-out-everywhere' = 'signed-out'): Promise<void> {
    this.end(reason);
    await this.#source.signOut();
  }

  #schedule(at: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#refresh(), Math.max(0, at - this.#now()));
  }

  #refresh(): Promise<void> {
    this.#refreshing ??= this.#source
      .refresh()
      .then(
        (grant) => {
          if (this.#endedBy !== null) return;
          this.#token = grant.idToken;
          this.#expiresAt = this.#now() + grant.expiresInMs;
          this.#schedule(this.#expiresAt - this.#margin);
        },
        () => {
          if (this.#endedBy !== null) return;
          // Keep the token while it is still good for a while, and try again.
          if (this.#now() + this.#retry < this.#expiresAt) this.#schedule(this.#now() + this.#retry);
          else this.end('expired');
        },
      )
      .finally(() => {
        this.#refreshing = null;
      });
    return this.#refreshing;
  }
}
