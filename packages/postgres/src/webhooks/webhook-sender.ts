import { Webhook } from 'standardwebhooks';
import { WEBHOOK_OUTBOX_TABLE, WEBHOOKS_TABLE } from '../key-store-migrations.js';
import type { Queryable } from '../queryable.js';
import { postWebhook, type WebhookPostOptions, type WebhookPostResult } from './safe-webhook-post.js';

/**
 * Default delays between delivery attempts, in seconds: the Standard Webhooks schedule (5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h), eight attempts over about 27 hours.
 */
export const DEFAULT_WEBHOOK_RETRY_SECONDS: readonly number[] = Object.freeze([5, 300, 1800, 7200, 18000, 36000, 36000]);

/** What the sender reports; never a secret or a payload. */
export type WebhookDeliveryReport =
  | { readonly kind: 'delivered'; readonly id: string; readonly accountId: string; readonly attempt: number }
  | {
      readonly kind: 'failed';
      readonly id: string;
      readonly accountId: string;
      readonly attempt: number;
      readonly reason: string;
      readonly givenUp: boolean;
    };

/** Options of {@link startWebhookSender}. */
export interface WebhookSenderOptions {
  readonly db: Queryable;
  /** Delays between attempts, in seconds; one attempt more than delays, then the delivery is kept dead (30 days). Default {@link DEFAULT_WEBHOOK_RETRY_SECONDS}. */
  readonly retrySeconds?: readonly number[];
  /** `http:` to loopback addresses allowed: development only. Default `false`. */
  readonly allowLoopback?: boolean;
  /** How often the outbox is looked at, in ms. Default 1000. */
  readonly intervalMs?: number;
  /** Deliveries in flight at once, per instance. Default 8. */
  readonly concurrency?: number;
  /** Timeout of one attempt, in ms. Default 5000. */
  readonly timeoutMs?: number;
  /** Told of every attempt (for logs and metrics); never given a secret. */
  readonly onDelivery?: (report: WebhookDeliveryReport) => void;
  /** Told when the outbox cannot be read or written; the sender tries again on its next turn. */
  readonly onError?: (error: unknown) => void;
  /** How a delivery is posted. Default {@link postWebhook}. Replace only in tests. */
  readonly post?: (
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    options: WebhookPostOptions,
  ) => Promise<WebhookPostResult>;
}

/** A running sender. */
export interface WebhookSender {
  /** Sends what is due now, once; resolves when those attempts are recorded. */
  runOnce(): Promise<void>;
  /** Stops looking at the outbox and waits for attempts in flight. */
  stop(): Promise<void>;
}

interface ClaimedRow {
  readonly id: string;
  readonly account_id: string;
  readonly body: string;
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
}

/**
 * Claims due deliveries: a row is due when its time has come and no sender holds its lease, and a
 * claim takes the lease (the attempt's timeout and a margin), so one instance at a time works on a
 * delivery; SKIP LOCKED keeps concurrent claimers off each other's rows. A row whose lease ran out
 * (its sender was killed) is due again: at least once.
 */
const CLAIM = `
  with due as (
    select o.id from ${WEBHOOK_OUTBOX_TABLE} o
      where o.failed_at is null and o.next_attempt_at <= now() and (o.locked_until is null or o.locked_until < now())
      order by o.id limit $1
      for update skip locked
  )
  update ${WEBHOOK_OUTBOX_TABLE} o
    set locked_until = now() + make_interval(secs => $2), attempts = o.attempts + 1
    from due, ${WEBHOOKS_TABLE} w
    where o.id = due.id and w.account_id = o.account_id
    returning o.id::text as id, o.account_id, o.payload::text as body, o.attempts, w.url, w.secret`;

/** Dead deliveries (out of retries) are kept this long, then deleted, a batch at a time. */
const PRUNE_DEAD = `
  delete from ${WEBHOOK_OUTBOX_TABLE} where id in (
    select id from ${WEBHOOK_OUTBOX_TABLE} where failed_at < now() - interval '30 days' limit 1000
  )`;
/** How often a sender prunes dead deliveries, in ms: at its first turn, then hourly. */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Sends the webhook outbox (migration 10): every key event of an account with an endpoint, signed as
 * the Standard Webhooks specification says (`webhook-id` `msg_<outbox id>`, `webhook-timestamp`,
 * `webhook-signature` `v1,<base64 HMAC-SHA256>` with the endpoint's `whsec_` secret) and POSTed by
 * {@link postWebhook}. A 2xx deletes the row; anything else schedules the next attempt after the
 * next delay of `retrySeconds`, recording why it failed (`reason`) and when, for the owner to see
 * (`PostgresWebhookStore.endpointOf`); after the last one the row is kept dead (`failed_at` set, never sent
 * again; reported `givenUp`) for 30 days, then deleted.
 * Several instances may run one each on one database: each delivery is claimed by one at a time.
 * Nothing here runs on a request's path: a slow endpoint holds one of `concurrency` slots, never a
 * request.
 *
 * @example
 * ```ts
 * const sender = startWebhookSender({ db, onError: (err) => logger.warn({ err }, 'webhook outbox') });
 * // …
 * await sender.stop();
 * ```
 */
export function startWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { db } = options;
  const retrySeconds = options.retrySeconds ?? DEFAULT_WEBHOOK_RETRY_SECONDS;
  if (!retrySeconds.every((s) => Number.isFinite(s) && s >= 0))
    throw new TypeError('startWebhookSender: retrySeconds must be numbers >= 0');
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? 5000;
  const postOptions: WebhookPostOptions = { allowLoopback: options.allowLoopback === true, timeoutMs };
  const post = options.post ?? postWebhook;
  // Long enough for one attempt to finish; a killed sender's claim is due again after it.
  const leaseSeconds = Math.ceil(timeoutMs / 1000) * 2 + 5;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  async function attempt(row: ClaimedRow): Promise<void> {
    const msgId = `msg_${row.id}`;
    const now = new Date();
    const signature = new Webhook(row.secret).sign(msgId, now, row.body);
    const headers = {
      'webhook-id': msgId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    };
    const result = await post(row.url, headers, row.body, postOptions);
    const report = { id: msgId, accountId: row.account_id, attempt: row.attempts };
    if (result.delivered) {
      await db.query(`delete from ${WEBHOOK_OUTBOX_TABLE} where id = $1`, [row.id]);
      options.onDelivery?.({ kind: 'delivered', ...report });
      return;
    }
    const delay = retrySeconds[row.attempts - 1];
    // The reason is shown to the account's owner (GET /keys/webhook): postWebhook's classification only.
    if (delay === undefined) {
      await db.query(
        `update ${WEBHOOK_OUTBOX_TABLE} set failed_at = now(), locked_until = null, last_error = $2, last_error_at = now() where id = $1`,
        [row.id, result.reason],
      );
    } else {
      await db.query(
        `update ${WEBHOOK_OUTBOX_TABLE}
           set next_attempt_at = now() + make_interval(secs => $2), locked_until = null, last_error = $3, last_error_at = now()
           where id = $1`,
        [row.id, delay, result.reason],
      );
    }
    options.onDelivery?.({ kind: 'failed', ...report, reason: result.reason, givenUp: delay === undefined });
  }

  function track(row: ClaimedRow): void {
    const p: Promise<void> = attempt(row)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  let turn: Promise<void> | null = null;
  let prunedAt = Number.NEGATIVE_INFINITY;
  async function claimAndSend(): Promise<void> {
    if (stopped) return;
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await db.query(PRUNE_DEAD);
    }
    const free = concurrency - inFlight.size;
    if (free <= 0) return;
    const { rows } = await db.query<ClaimedRow>(CLAIM, [free, leaseSeconds]);
    for (const row of rows) track({ ...row, attempts: Number(row.attempts) });
  }
  const turnNow = (): Promise<void> => {
    turn ??= claimAndSend().finally(() => {
      turn = null;
    });
    return turn;
  };
  const runOnce = async (): Promise<void> => {
    await turnNow();
    await Promise.all([...inFlight]);
  };

  const timer = setInterval(() => turnNow().catch((error: unknown) => options.onError?.(error)), options.intervalMs ?? 1000);
  timer.unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await turn?.catch(() => {});
      await Promise.all([...inFlight]);
    },
  };
}
