import type { Logger } from 'pino';
import type { DropsRepository } from './db/drops-repository.js';

/** A running sweeper. */
export interface Sweeper {
  /** Deletes expired drops now; resolves how many went. */
  sweep(): Promise<number>;
  /** Writes the key expiry notices and events due now (webhooks), prunes spent notices; resolves how many. */
  notify(): Promise<{ expiring: number; expired: number; pruned: number }>;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Purges expired (anonymous) drops every `intervalMs`, and once at start. Serving already
 * refuses expired drops, so the sweeper only reclaims space; several instances may sweep the
 * same database (the delete is idempotent). On the same beat it writes the keys' expiry notices
 * (`key.expiring` 7 days and 1 day ahead, and the `'expired'` event of a key whose expiry passed),
 * which the webhook outbox delivers; each is written once per key whoever sweeps.
 */
export function startSweeper(options: {
  drops: DropsRepository;
  keyNotices: () => Promise<{ expiring: number; expired: number; pruned: number }>;
  intervalMs: number;
  clock: () => number;
  logger: Logger;
}): Sweeper {
  const { drops, clock, logger } = options;
  let notifying: Promise<{ expiring: number; expired: number; pruned: number }> | null = null;
  const notify = (): Promise<{ expiring: number; expired: number; pruned: number }> => {
    notifying ??= options
      .keyNotices()
      .then((written) => {
        if (written.expiring + written.expired + written.pruned > 0) logger.info(written, 'wrote key expiry notices');
        return written;
      })
      .finally(() => {
        notifying = null;
      });
    return notifying;
  };
  let running: Promise<number> | null = null;
  const sweep = (): Promise<number> => {
    running ??= drops
      .deleteExpired(new Date(clock()))
      .then((count) => {
        if (count > 0) logger.info({ count }, 'swept expired drops');
        return count;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const tick = (): void => {
    sweep().catch((error: unknown) => logger.warn({ err: error }, 'sweeping expired drops failed'));
    notify().catch((error: unknown) => logger.warn({ err: error }, 'writing key expiry notices failed'));
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  tick();
  return {
    sweep,
    notify,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
      await notifying?.catch(() => {});
    },
  };
}
