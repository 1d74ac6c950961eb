import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  DIAGNOSTICS_CHANNELS,
  type AuthenticateMessage,
  type JwksFetchMessage,
  type KeyStoreMessage,
  type RevocationMessage,
} from '@drops/auth';
import type { WebhookDeliveryReport } from '@drops/auth-postgres';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { LabelledCounter, LabelledHistogram } from './labelled-metrics.js';

/** Latency buckets in seconds, from 50 µs (an API key answered from memory) to 10 s (a timeout). */
const LATENCY_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A revocation waits for the write and, with a lease-coherent cache, for acknowledgements or lease expiry. */
const REVOCATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The reference server's Prometheus metrics; see docs/operations.md for each one. */
export interface ServerMetrics {
  /** Counts one answered request; the access log calls it once per response. */
  countRequest(method: string, route: string, status: number): void;
  /**
   * Counts how a revocation's wait ended on a store with a lease-coherent cache (PostgreSQL's
   * `onRevocationWait`): instances that acknowledged it, and leases that had to expire instead.
   */
  countRevocationWait(wait: { readonly acknowledged: number; readonly expired: number }): void;
  /**
   * Counts one webhook delivery attempt (the sender's `onDelivery`) by outcome: `delivered`, `retry`
   * (failed, another attempt scheduled) or `dead` (failed, out of retries: kept dead in the outbox).
   */
  countWebhookDelivery(report: WebhookDeliveryReport): void;
  /** Reads the key store's lease and unheard hearing checks at each scrape (PostgreSQL's lease-coherent cache). */
  watchKeyStore(store: { readonly answeringKeys: boolean; readonly notificationsUnheard: number }): void;
  /** The Prometheus text exposition: the metrics below and the process's default metrics. */
  render(): Promise<string>;
  /** The `Content-Type` of {@link ServerMetrics.render}'s text. */
  readonly contentType: string;
  /** Stops listening to the diagnostics channels. */
  close(): void;
}

// Default process metrics (CPU, memory, event loop lag, GC) are the process's, once, whatever the
// number of servers in it (tests run several).
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const seconds = (ms: number): number => ms / 1000;

/**
 * Creates the server's metrics and feeds them from `@drops/auth`'s diagnostics channels. The
 * channels are the process's: every authenticator in the process is counted (one server per
 * process, as `pnpm start` runs it, counts its own).
 *
 * Metrics on the path of every request are {@link LabelledCounter}s and {@link LabelledHistogram}s
 * (a series lookup and a few adds); the rare events (JWKS fetches, store errors, revocations) use
 * prom-client's own classes.
 */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  const requests = new LabelledCounter(
    'drops_auth_requests_total',
    'Authentications by credential type (api_key, id_token, none), outcome (authenticated, anonymous, refused, unavailable, error) and reason (of a 401 or 503; none otherwise).',
    ['credential', 'outcome', 'reason'],
  ).registerIn(registry);
  const authenticateSeconds = new LabelledHistogram(
    'drops_auth_authenticate_duration_seconds',
    'Time to authenticate a request, by credential type and outcome.',
    ['credential', 'outcome'],
    LATENCY_BUCKETS,
  ).registerIn(registry);
  const keyStoreSeconds = new LabelledHistogram(
    'drops_auth_key_store_duration_seconds',
    'Time of each key store call (findActive, create, listByAccount, revoke), failed or not.',
    ['operation'],
    LATENCY_BUCKETS,
  ).registerIn(registry);
  const keyLookups = new LabelledCounter(
    'drops_auth_key_lookups_total',
    'API key lookups (findActive) by where they were answered: memory (at once) or store (a database round trip, or a wait for the lease).',
    ['from'],
  ).registerIn(registry);
  const keyStoreErrors = new Counter({
    name: 'drops_auth_key_store_errors_total',
    help: 'Key store calls that threw or rejected, by operation.',
    labelNames: ['operation'],
    registers: [registry],
  });
  const jwksFetches = new Counter({
    name: 'drops_auth_jwks_fetches_total',
    help: "Fetches of the identity provider's key set, by outcome (fetched, failed).",
    labelNames: ['outcome'],
    registers: [registry],
  });
  const jwksSeconds = new Histogram({
    name: 'drops_auth_jwks_fetch_duration_seconds',
    help: "Time to fetch the identity provider's key set, by outcome.",
    labelNames: ['outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const jwksKeys = new Gauge({
    name: 'drops_auth_jwks_keys',
    help: 'Keys in the last key set fetched.',
    registers: [registry],
  });
  const revocationSeconds = new Histogram({
    name: 'drops_auth_revocation_wait_seconds',
    help: 'How long each revocation waited (the write, and with a lease-coherent cache the acknowledgements), by outcome (revoked, not_found, failed).',
    labelNames: ['outcome'],
    buckets: REVOCATION_BUCKETS,
    registers: [registry],
  });
  const acknowledgements = new Counter({
    name: 'drops_auth_revocation_acknowledgements_total',
    help: 'Instances that acknowledged a revocation (PostgreSQL lease-coherent cache).',
    registers: [registry],
  });
  const expiredLeases = new Counter({
    name: 'drops_auth_revocation_expired_leases_total',
    help: 'Instances a revocation waited on whose cache lease expired instead of acknowledging (partitioned, paused or killed).',
    registers: [registry],
  });
  let keyStore: { readonly answeringKeys: boolean; readonly notificationsUnheard: number } | null = null;
  new Gauge({
    name: 'drops_auth_key_store_lease_held',
    help: 'Whether the key store holds its cache lease and answers API keys (1), or not (0: starting, database lost, or not hearing announcements; API keys are 503s).',
    registers: [registry],
    collect() {
      this.set(keyStore === null || keyStore.answeringKeys ? 1 : 0);
    },
  });
  let unheardSeen = 0;
  new Counter({
    name: 'drops_auth_notifications_unheard_total',
    help: "The lease session's own notifications (hearing checks) that never arrived: each one dropped the lease until the session hears again.",
    registers: [registry],
    collect() {
      const now = keyStore?.notificationsUnheard ?? 0;
      if (now > unheardSeen) this.inc(now - unheardSeen);
      unheardSeen = now;
    },
  });
  const webhookDeliveries = new Counter({
    name: 'drops_auth_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry: failed and scheduled again, dead: failed and out of retries).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const httpRequests = new LabelledCounter(
    'drops_http_requests_total',
    'HTTP responses by method, route pattern (none when no route answered: 404s, refusals before routing) and status.',
    ['method', 'route', 'status'],
  ).registerIn(registry);

  const listeners: Array<[string, (message: unknown) => void]> = [
    [
      DIAGNOSTICS_CHANNELS.authenticate,
      (message) => {
        const m = message as AuthenticateMessage;
        const credential = m.credential ?? 'none';
        requests.series(credential, m.outcome, m.reason ?? 'none').inc();
        authenticateSeconds.series(credential, m.outcome).observe(seconds(m.durationMs));
      },
    ],
    [
      DIAGNOSTICS_CHANNELS.keyStore,
      (message) => {
        const m = message as KeyStoreMessage;
        keyStoreSeconds.series(m.operation).observe(seconds(m.durationMs));
        if (m.operation === 'findActive') keyLookups.series(m.fromMemory ? 'memory' : 'store').inc();
        if (m.error !== null) keyStoreErrors.inc({ operation: m.operation });
      },
    ],
    [
      DIAGNOSTICS_CHANNELS.jwksFetch,
      (message) => {
        const m = message as JwksFetchMessage;
        jwksFetches.inc({ outcome: m.outcome });
        jwksSeconds.observe({ outcome: m.outcome }, seconds(m.durationMs));
        if (m.keyCount !== null) jwksKeys.set(m.keyCount);
      },
    ],
    [
      DIAGNOSTICS_CHANNELS.revocation,
      (message) => {
        const m = message as RevocationMessage;
        revocationSeconds.observe({ outcome: m.outcome }, seconds(m.durationMs));
      },
    ],
  ];
  for (const [channel, listener] of listeners) subscribe(channel, listener);

  const exposed = Registry.merge([processMetrics(), registry]);
  return {
    countRequest(method, route, status) {
      httpRequests.series(method, route, status).inc();
    },
    countRevocationWait(wait) {
      acknowledgements.inc(wait.acknowledged);
      expiredLeases.inc(wait.expired);
    },
    countWebhookDelivery(report) {
      const outcome = report.kind === 'delivered' ? 'delivered' : report.givenUp ? 'dead' : 'retry';
      webhookDeliveries.inc({ outcome });
    },
    watchKeyStore(store) {
      keyStore = store;
    },
    render: () => exposed.metrics(),
    contentType: exposed.contentType,
    close() {
      for (const [channel, listener] of listeners) unsubscribe(channel, listener);
    },
  };
}
