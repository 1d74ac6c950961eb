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
  /** The account's endpoint URL, or `null` when it has none. */
  urlOf(accountId: string): Promise<string | null>;
  /** Sets (or replaces) the account's endpoint and secret; deliveries not yet made go to the new one. */
  set(accountId: string, url: string, secret: string): Promise<void>;
  /** Removes the account's endpoint and every delivery not yet made; resolves whether there was one. */
  remove(accountId: string): Promise<boolean>;
}

/** `true` for a {@link WebhookStore} (the `store` option of `createWebhookSettings`). @internal */
export function isWebhookStore(value: unknown): value is WebhookStore {
  const store = value as Partial<WebhookStore> | null | undefined;
  return typeof store?.urlOf === 'function' && typeof store.set === 'function' && typeof store.remove === 'function';
}
