import type { WebhookStore } from './webhook-store.js';

/**
 * A {@link WebhookStore} in this process's memory: the settings routes work, nothing is delivered.
 * For tests and for the in-memory reference server; delivery needs `@drops/auth-postgres`.
 *
 * @example
 * ```ts
 * const store = new MemoryWebhookStore();
 * await store.set('acct_1', 'https://example.com/hooks', 'whsec_…');
 * await store.urlOf('acct_1'); // 'https://example.com/hooks'
 * ```
 */
export class MemoryWebhookStore implements WebhookStore {
  readonly #endpoints = new Map<string, { url: string; secret: string }>();

  async urlOf(accountId: string): Promise<string | null> {
    return this.#endpoints.get(accountId)?.url ?? null;
  }

  async set(accountId: string, url: string, secret: string): Promise<void> {
    this.#endpoints.set(accountId, { url, secret });
  }

  async remove(accountId: string): Promise<boolean> {
    return this.#endpoints.delete(accountId);
  }
}
