/**
 * Where an account's webhook endpoint lives: its URL and the `whsec_` secret its deliveries are
 * signed with. The sender needs the secret itself (an HMAC key), so it is stored as it is: keep the
 * store's table out of logs and backups you would not trust with it. One endpoint per account.
 *
 * `@drops/auth-postgres`'s `PostgresWebhookStore` implements it (and delivers the account's key
 * events from an outbox); {@link MemoryWebhookStore} holds settings only (no delivery), for tests.
 *
 * @example
 * ```ts
 * const keys = createKeyManager({ keyStore, webhooks: createWebhookSettings({ store: new MemoryWebhookStore() }) });
 * ```
 */
export interface WebhookStore {
  /** The account's endpoint (its URL and how its deliveries stand, never its secret), or `null` when it has none. */
  endpointOf(accountId: string): Promise<WebhookEndpoint | null>;
  /** Sets (or replaces) the account's endpoint and secret; deliveries not yet made go to the new one. */
  set(accountId: string, url: string, secret: string): Promise<void>;
  /** Removes the account's endpoint and every delivery not yet made; resolves whether there was one. */
  remove(accountId: string): Promise<boolean>;
}

/**
 * An account's webhook endpoint as its owner sees it (`GET /keys/webhook`): the URL and how its
 * deliveries stand.
 *
 * @example
 * ```ts
 * const endpoint = await store.endpointOf('acct_1');
 * if (endpoint && endpoint.deliveries.failed > 0) console.warn(`failing: ${endpoint.deliveries.lastFailure?.reason}`);
 * ```
 */
export interface WebhookEndpoint {
  readonly url: string;
  readonly deliveries: WebhookDeliveries;
}

/**
 * How an endpoint's deliveries stand. Delivered ones are not kept, so these are the ones still held.
 *
 * @example
 * ```ts
 * const healthy: WebhookDeliveries = { pending: 0, failed: 0, lastFailure: null };
 * ```
 */
export interface WebhookDeliveries {
  /** Deliveries not yet made and not given up (due, in flight, or waiting for a retry). */
  readonly pending: number;
  /** Deliveries that ran out of retries: never sent again, kept (30 days on PostgreSQL) so this shows them. */
  readonly failed: number;
  /**
   * The latest failed attempt among the deliveries still held, pending or failed: when (RFC 3339,
   * UTC) and why, a short classification such as `answered 500`, `timed out` or
   * `no public address` (never the endpoint's answer, a header, the secret, or whether a name
   * resolved). `null` when none failed.
   */
  readonly lastFailure: { readonly at: string; readonly reason: string } | null;
}

/** `true` for a {@link WebhookStore} (the `store` option of `createWebhookSettings`). @internal */
export function isWebhookStore(value: unknown): value is WebhookStore {
  const store = value as Partial<WebhookStore> | null | undefined;
  return typeof store?.endpointOf === 'function' && typeof store.set === 'function' && typeof store.remove === 'function';
}
