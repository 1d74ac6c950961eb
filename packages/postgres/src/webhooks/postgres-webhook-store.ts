import type { WebhookStore } from '@drops/auth';
import { WEBHOOKS_TABLE } from '../key-store-migrations.js';
import type { Queryable } from '../queryable.js';

/**
 * The {@link WebhookStore} of a migrated key store database (migration 10): one endpoint per
 * account. Once an account has one, every key event the database records for it (whichever path
 * wrote it, plain SQL included) queues a delivery in the same transaction, which
 * {@link startWebhookSender} sends.
 *
 * @example
 * ```ts
 * const keys = createKeyManager({ keyStore, webhooks: createWebhookSettings({ store: new PostgresWebhookStore({ db }) }) });
 * ```
 */
export class PostgresWebhookStore implements WebhookStore {
  readonly #db: Queryable;

  constructor(options: { readonly db: Queryable }) {
    if (typeof options?.db?.query !== 'function') throw new TypeError('PostgresWebhookStore: db must be a Queryable');
    this.#db = options.db;
  }

  async urlOf(accountId: string): Promise<string | null> {
    const { rows } = await this.#db.query<{ url: string }>(`select url from ${WEBHOOKS_TABLE} where account_id = $1`, [accountId]);
    return rows[0]?.url ?? null;
  }

  async set(accountId: string, url: string, secret: string): Promise<void> {
    await this.#db.query(
      `insert into ${WEBHOOKS_TABLE} (account_id, url, secret) values ($1, $2, $3)
         on conflict (account_id) do update set url = excluded.url, secret = excluded.secret, updated_at = now()`,
      [accountId, url, secret],
    );
  }

  async remove(accountId: string): Promise<boolean> {
    const { rows } = await this.#db.query<{ account_id: string }>(
      `delete from ${WEBHOOKS_TABLE} where account_id = $1 returning account_id`,
      [accountId],
    );
    return rows.length > 0;
  }
}
