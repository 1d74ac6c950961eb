import type { WebhookEndpoint, WebhookStore } from './webhook-store.js';

/**
 * A {@link WebhookStore} in this process's memory: the settings routes work, nothing is delivered.
 * For tests and for the in-memory reference server; delivery needs `@drops/auth-postgres`.
 *
 * @example
 * ```ts
 * const store = new MemoryWebhookStore();
 * await store.set('acct_1', 'https://example.com/hooks', 'whsec_…');
 * await store.endpointOf('acct_1');
 * // { url: 'https://example.com/hooks', deliveries: { pending: 0, failed: 0, lastFailure: null } }
 * ```
 */
export class MemoryWebhookStore implements WebhookStore {
  readonly #endpoints = new Map<string, { url: string; secret: string }>();

  /** The endpoint with no deliveries (this store sends none). */
  async endpointOf(accountId: string): Promise<WebhookEndpoint | null> {
    const endpoint = this.#endpoints.get(accountId);
    return endpoint === undefined ? null : { url: endpoint.url, deliveries: { pending: 0, failed: 0, lastFailure: null } };
  }

  async set(accountId: string, url: string, secret: string): Promise<void> {
    this.#endpoints.set(accountId, { url, secret });
  }

  async remove(accountId: string): Promise<boolean> {
    return this.#endpoints.delete(accountId);
  }
}
