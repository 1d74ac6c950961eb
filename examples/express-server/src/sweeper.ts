import type { Logger } from 'pino';
import type { DropsRepository } from './db/drops-repository.js';

/** A running sweeper. */
export interface Sweeper {
  /** Deletes expired drops now; resolves how many went. */
  sweep(): Promise<number>;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Purges expired (anonymous) drops every `intervalMs`, and once at start. Serving already
 * refuses expired drops, so the sweeper only reclaims space; several instances may sweep the
 * same database (the delete is idempotent).
 */
export function startSweeper(options: { drops: DropsRepository; intervalMs: number; clock: () => number; logger: Logger }): Sweeper {
  const { drops, clock, logger } = options;
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
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  tick();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
