import { Webhook } from 'standardwebhooks';
import type { Queryable } from '../queryable.js';
import { postWebhook, type WebhookPostOptions, type WebhookPostResult } from './safe-webhook-post.js';
import { CLAIM, PRUNE_DEAD, RECORD_DELIVERED, RECORD_FAILED, SHORT_CIRCUIT } from './webhook-outbox-sql.js';

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
      /** Shown to the owner too (`GET /keys/webhook`). */
      readonly reason: string;
      /** For the operator's logs only (debug): more than the owner is shown, such as what a refused host resolved to. */
      readonly detail?: string;
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
  /**
   * Failed attempts in a row after which an endpoint's circuit opens: for 30 s, doubled at each
   * further failure up to an hour, its due deliveries fail without a connection, then one attempt
   * is made (a success closes it). Default 5.
   */
  readonly openCircuitAfter?: number;
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
  readonly message_id: string;
  readonly account_id: string;
  readonly body: string;
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
  readonly lease: string;
}

interface ShortCircuitedRow {
  readonly message_id: string;
  readonly account_id: string;
  readonly attempts: number;
  readonly given_up: boolean;
}

/** How often a sender prunes dead deliveries, in ms: at its first turn, then hourly. */
const PRUNE_EVERY_MS = 3_600_000;
/** How long an endpoint's circuit first stays open, in seconds; doubled at each failure after, up to {@link CIRCUIT_MAX_SECONDS}. */
const CIRCUIT_FIRST_SECONDS = 30;
const CIRCUIT_MAX_SECONDS = 3600;
/** The reason reported for a delivery not tried because its endpoint's circuit was open. */
const CIRCUIT_OPEN = 'not sent: the endpoint kept failing';

/**
 * Sends the webhook outbox (migration 10): every key event of an account with an endpoint, signed as
 * the Standard Webhooks specification says (`webhook-id` the delivery's random `msg_` id, the same on
 * every attempt; `webhook-timestamp`; `webhook-signature` `v1,<base64 HMAC-SHA256>` with the
 * endpoint's `whsec_` secret) and POSTed by {@link postWebhook}. A 2xx deletes the row; anything
 * else schedules the next attempt after the next delay of `retrySeconds`, recording why it failed
 * (`reason`) and when, for the owner to see (`PostgresWebhookStore.endpointOf`); after the last one
 * the row is kept dead (`failed_at` set, never sent again; reported `givenUp`) for 30 days, then deleted.
 * Fair between accounts (migration 12): an endpoint has at most one attempt in flight, on any
 * instance, and its circuit opens after `openCircuitAfter` failures in a row, so a slow or dead
 * endpoint holds at most one of the `concurrency` slots, and rarely, whatever it has queued.
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
  const openCircuitAfter = options.openCircuitAfter ?? 5;
  if (!Number.isInteger(openCircuitAfter) || openCircuitAfter < 1)
    throw new TypeError('startWebhookSender: openCircuitAfter must be a whole number >= 1');
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? 5000;
  const postOptions: WebhookPostOptions = { allowLoopback: options.allowLoopback === true, timeoutMs };
  const post = options.post ?? postWebhook;
  // Long enough for one attempt to finish; a killed sender's claim is due again after it.
  const leaseSeconds = Math.ceil(timeoutMs / 1000) * 2 + 5;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  async function attempt(row: ClaimedRow): Promise<void> {
    const msgId = row.message_id;
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
      await db.query(RECORD_DELIVERED, [row.account_id, row.lease, row.id]);
      options.onDelivery?.({ kind: 'delivered', ...report });
      return;
    }
    const delay = retrySeconds[row.attempts - 1];
    // The reason is shown to the account's owner (GET /keys/webhook): postWebhook's classification only.
    await db.query(RECORD_FAILED, [
      row.account_id,
      row.lease,
      row.id,
      delay ?? null,
      result.reason,
      openCircuitAfter,
      CIRCUIT_FIRST_SECONDS,
      CIRCUIT_MAX_SECONDS,
    ]);
    const detail = result.detail === undefined ? {} : { detail: result.detail };
    options.onDelivery?.({ kind: 'failed', ...report, reason: result.reason, ...detail, givenUp: delay === undefined });
  }

  function track(row: ClaimedRow): void {
    const p: Promise<void> = attempt(row)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        inFlight.delete(p);
        // The endpoint and a slot are free again: claim now, not at the next tick.
        turnNow().catch((error: unknown) => options.onError?.(error));
      });
    inFlight.add(p);
  }

  async function shortCircuit(): Promise<void> {
    const { rows } = await db.query<ShortCircuitedRow>(SHORT_CIRCUIT, [retrySeconds]);
    for (const row of rows) {
      const report = { id: row.message_id, accountId: row.account_id, attempt: Number(row.attempts) };
      options.onDelivery?.({ kind: 'failed', ...report, reason: CIRCUIT_OPEN, givenUp: row.given_up });
    }
  }

  let turn: Promise<void> | null = null;
  let again = false;
  let prunedAt = Number.NEGATIVE_INFINITY;
  async function claimAndSend(): Promise<void> {
    if (stopped) return;
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await db.query(PRUNE_DEAD);
    }
    await shortCircuit();
    const free = concurrency - inFlight.size;
    if (free <= 0) return;
    const { rows } = await db.query<ClaimedRow>(CLAIM, [free, leaseSeconds]);
    for (const row of rows) track({ ...row, attempts: Number(row.attempts) });
  }
  const turnNow = (): Promise<void> => {
    if (turn !== null) {
      again = true; // asked while a turn runs: one more after it
      return turn;
    }
    turn = claimAndSend().finally(() => {
      turn = null;
      if (again && !stopped) {
        again = false;
        turnNow().catch((error: unknown) => options.onError?.(error));
      }
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
