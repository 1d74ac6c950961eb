import type { WebhookEndpoint, WebhookStore } from '@drops/auth';
import { WEBHOOK_OUTBOX_TABLE, WEBHOOKS_TABLE } from '../key-store-migrations.js';
import type { Queryable } from '../queryable.js';

interface EndpointRow {
  readonly url: string;
  readonly pending: number;
  readonly failed: number;
  readonly last_error: string | null;
  readonly last_error_at: Date | string | null;
}

/** An account's endpoint with its outbox counted, and the newest failed attempt among what the outbox holds. */
const ENDPOINT = `
  select w.url,
      count(o.id) filter (where o.failed_at is null)::int as pending,
      count(o.id) filter (where o.failed_at is not null)::int as failed,
      last.last_error, last.last_error_at
    from ${WEBHOOKS_TABLE} w
    left join ${WEBHOOK_OUTBOX_TABLE} o on o.account_id = w.account_id
    left join lateral (
      select l.last_error, l.last_error_at from ${WEBHOOK_OUTBOX_TABLE} l
        where l.account_id = w.account_id and l.last_error_at is not null
        order by l.last_error_at desc, l.id desc limit 1
    ) last on true
    where w.account_id = $1
    group by w.url, last.last_error, last.last_error_at`;

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

  /** The endpoint and its outbox: pending and dead deliveries, and the newest failed attempt among them. */
  async endpointOf(accountId: string): Promise<WebhookEndpoint | null> {
    const { rows } = await this.#db.query<EndpointRow>(ENDPOINT, [accountId]);
    const row = rows[0];
    if (row === undefined) return null;
    const lastFailure =
      row.last_error_at === null ? null : { at: new Date(row.last_error_at).toISOString(), reason: row.last_error ?? 'failed' };
    return { url: row.url, deliveries: { pending: Number(row.pending), failed: Number(row.failed), lastFailure } };
  }

  /** Sets the endpoint; a new URL starts with its circuit closed. */
  async set(accountId: string, url: string, secret: string): Promise<void> {
    await this.#db.query(
      `insert into ${WEBHOOKS_TABLE} (account_id, url, secret) values ($1, $2, $3)
         on conflict (account_id) do update
           set url = excluded.url, secret = excluded.secret, updated_at = now(), failures = 0, paused_until = null`,
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
