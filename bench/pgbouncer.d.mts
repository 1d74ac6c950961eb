/** A PgBouncer started by {@link startPgBouncer}, in front of the PostgreSQL on 127.0.0.1:5432. */
export interface PgBouncer {
  readonly port: number;
  /** Its log so far (PgBouncer logs to stderr in the foreground). */
  readonly log: string[];
  /** `url` (a PostgreSQL URL of the tests' server) with its port replaced by PgBouncer's. */
  through(url: string): string;
  /** SIGTERM (SIGKILL after 2 s), then removes its configuration. */
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer in the foreground, as this process's child, on a free loopback port, in `mode`
 * pooling; rejects naming the install command if the binary is missing (see pgbouncer.mjs).
 */
export function startPgBouncer(mode: 'transaction' | 'session'): Promise<PgBouncer>;
