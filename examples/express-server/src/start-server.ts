import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthenticator, createKeyManager, createWebhookSettings, inProcessRateLimitStore } from '@drops/auth';
import {
  NotificationsUnheardError,
  PostgresKeyStore,
  PostgresRateLimitStore,
  PostgresWebhookStore,
  startWebhookSender,
  writeExpiryNotices,
  type Queryable,
} from '@drops/auth-postgres';
import { limitAuthFailures } from './rate-limits/auth-failure-limit.js';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Lifecycle } from './app-deps.js';
import { createApp } from './app.js';
import { limitConnections } from './http/connection-limits.js';
import { warnOfTrustedHopCount } from './http/trust-proxy-warning.js';
import { SHAPED_MESSAGES } from './http/shaped-messages.js';
import type { Config } from './config.js';
import { DropsRepository } from './db/drops-repository.js';
import { startMetricsListener, type MetricsListener } from './metrics/metrics-endpoints.js';
import { createServerMetrics } from './metrics/server-metrics.js';
import { openDatabase } from './db/open-database.js';
import { createIdentity } from './identity/create-identity.js';
import { startSweeper, type Sweeper } from './sweeper.js';

/** A listening server and what it holds open. */
export interface RunningServer {
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  readonly app: Express;
  readonly server: Server;
  readonly db: Queryable;
  readonly sweeper: Sweeper;
  /** `http://host:port/metrics` of the metrics listener, or `null` when `METRICS_PORT=off`. */
  readonly metricsUrl: string | null;
  /**
   * Graceful shutdown: stop accepting, let requests in flight finish (at most
   * `shutdownTimeoutMs`, then cut them), stop the sweeper, flush the key store, close the database.
   */
  close(): Promise<void>;
}

/** What tests may replace. */
export interface StartOptions {
  readonly logger: Logger;
  readonly clock?: () => number;
}

/**
 * Waits for the key store's first lease (docs/postgres.md#poolers); a listening session that does
 * not hear is a refusal to start that names the setting to add.
 */
async function keyStoreReady(keyStore: PostgresKeyStore, db: Queryable): Promise<void> {
  try {
    await keyStore.ready();
  } catch (error) {
    await keyStore.close();
    await db.close();
    if (!(error instanceof NotificationsUnheardError)) throw error;
    throw new Error(
      'DATABASE_URL does not deliver notifications to a listening session (a transaction-mode pooler?): ' +
        'set DATABASE_LISTEN_URL to a direct or session-mode URL of the same database',
    );
  }
}

/**
 * Opens the database, migrates it, builds the app from the configuration and listens. The
 * one function `main.ts` calls, and what tests call to run the real thing in process.
 */
export async function startServer(config: Config, options: StartOptions): Promise<RunningServer> {
  const { logger } = options;
  const clock = options.clock ?? Date.now;
  const identity = createIdentity(config.identity, { clock, onWarning: (message) => logger.warn(message) });
  const db = await openDatabase(config.database);
  const metrics = config.metrics.port !== null || config.metrics.token !== null ? createServerMetrics() : null;
  const keyStore = new PostgresKeyStore({
    db,
    onError: (error) => logger.warn({ err: error }, 'key store: recording key use or renewing the cache lease failed; will retry'),
    // docs/revocation.md: on PostgreSQL a revoke returns once every instance holding a cache lease
    // acknowledged it (or its lease expired).
    onRevocationWait: (wait) => {
      metrics?.countRevocationWait(wait);
      logger.debug({ revocationWait: wait }, 'revocation acknowledged by every instance');
    },
  });
  await keyStoreReady(keyStore, db);
  metrics?.watchKeyStore(keyStore);
  // Every limit (mints, revokes by value, anonymous deploys, failed authentications) in one store:
  // on PostgreSQL the database, so instances behind one load balancer share each count; PGlite is
  // one process, which counts alone.
  const rateLimitStore = config.database.kind === 'postgres' ? new PostgresRateLimitStore({ db }) : inProcessRateLimitStore({ clock });
  const authenticator = createAuthenticator({
    keyStore,
    idTokenVerifier: identity.verifier,
    resolveAccount: identity.resolveAccount,
    // A database outage and its end, once each (the default would be console.warn, outside the log).
    onWarning: (message) => logger.warn(message),
  });
  const lifecycle: Lifecycle = { shuttingDown: false };
  const app = createApp({
    config,
    authenticator:
      config.authFailureLimit === null
        ? authenticator
        : limitAuthFailures(authenticator, {
            store: rateLimitStore,
            limit: config.authFailureLimit,
            ipv6PrefixLength: config.ipv6PrefixLength,
            clock,
          }),
    rateLimitStore,
    keys: createKeyManager({
      keyStore,
      rateLimitStore,
      clock,
      maxKeysPerAccount: config.maxKeysPerAccount,
      mintRateLimit: config.mintRateLimit,
      ...(config.mintMaxAuthAgeSeconds !== null ? { maxAuthAgeSeconds: config.mintMaxAuthAgeSeconds } : {}),
      ...(config.maxKeyLifetimeDays !== null ? { maxKeyLifetimeSeconds: config.maxKeyLifetimeDays * 86_400 } : {}),
      webhooks: createWebhookSettings({ store: new PostgresWebhookStore({ db }), allowLoopbackHttp: config.webhookAllowLoopback }),
    }),
    db,
    answeringKeys: () => keyStore.answeringKeys,
    logger,
    devIdentity: identity.dev,
    clock,
    lifecycle,
    metrics,
  });
  const sweeper = startSweeper({
    drops: new DropsRepository(db),
    keyNotices: () => writeExpiryNotices(db),
    intervalMs: config.sweepIntervalMs,
    clock,
    logger,
  });
  // Off every request's path: the outbox is read on its own timer, a few deliveries at a time.
  // Logged by id and account only: never the secret, the URL's answer or the payload.
  const webhookSender = startWebhookSender({
    db,
    retrySeconds: config.webhookRetrySeconds,
    allowLoopback: config.webhookAllowLoopback,
    onDelivery: (report) => {
      metrics?.countWebhookDelivery(report);
      if (report.kind === 'delivered') logger.debug({ webhook: report }, 'webhook delivered');
      else {
        // The detail (what a refused host resolved to, a lookup's error) is the operator's network: debug only.
        const { detail, ...shown } = report;
        logger.warn({ webhook: shown }, report.givenUp ? 'webhook delivery given up' : 'webhook delivery failed; will retry');
        if (detail !== undefined) logger.debug({ webhook: report }, 'webhook delivery failure detail');
      }
    },
    onError: (error) => logger.warn({ err: error }, 'webhook outbox: reading or updating failed; will retry'),
  });

  // Timeouts are checked every connectionsCheckingInterval (Node's default: 30 s): a second, so a
  // request timeout of seconds cuts a trickled request within about that.
  const server = createServer({ ...SHAPED_MESSAGES, connectionsCheckingInterval: 1000 }, app);
  limitConnections(server, config);
  let metricsListener: MetricsListener | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (metrics !== null && config.metrics.port !== null) {
      metricsListener = await startMetricsListener({ host: config.metrics.host, port: config.metrics.port }, metrics);
    }
  } catch (error) {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
    metrics?.close();
    await sweeper.stop();
    await webhookSender.stop();
    await keyStore.close();
    await db.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;

  warnOfTrustedHopCount(config.trustProxy, logger);
  identity.verifier.warmUp().catch((error: unknown) => logger.warn({ err: error }, 'identity provider key set not reachable yet'));

  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    lifecycle.shuttingDown = true;
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections that go idle while draining are closed as they do.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), config.shutdownTimeoutMs).unref());
    const outcome = await Promise.race([drained.then(() => 'drained' as const), deadline]);
    clearInterval(idle);
    if (outcome === 'timeout') {
      logger.warn('shutdown timeout: closing connections still open');
      server.closeAllConnections();
      await drained;
    }
    await metricsListener?.close();
    metrics?.close();
    await sweeper.stop();
    await webhookSender.stop();
    await keyStore.close();
    await db.close();
  };

  return {
    url,
    app,
    server,
    db,
    sweeper,
    metricsUrl: metricsListener?.url ?? null,
    close: () => (closing ??= close()),
  };
}
