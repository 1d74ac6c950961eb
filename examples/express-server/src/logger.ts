import { pino, type DestinationStream, type Logger } from 'pino';
import { BatchedDestination } from './batched-destination.js';
import { percentDecoded } from './percent-decoded.js';

/**
 * Log paths never written: credentials travel in these headers. API keys and ID tokens appear
 * nowhere else in what is logged (bodies are not logged; a key's id and prefix are fine).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * Creates the process logger: JSON lines (or pretty in a dev terminal), credentials redacted.
 * JSON goes to stdout in batches of about 16 KiB, written when full and at least every 250 ms,
 * and flushed when the process exits ({@link BatchedDestination}): a write per line cost more
 * than building the line (bench/METHOD.md). Each batch is one synchronous `write` (pino's own
 * default, and Node's for `process.stdout` on a file or a pipe): handed to the thread pool
 * instead, a batch cost about five times the CPU of the write itself.
 */
export function createLogger(options: { level: string; format?: 'json' | 'pretty' }, destination?: DestinationStream): Logger {
  const base = { level: options.level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (destination !== undefined) return pino(base, destination);
  if (options.format === 'pretty') {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l' } } });
  }
  return pino(base, new BatchedDestination(pino.destination({ dest: 1, sync: true })));
}

// Shapes of credentials, scrubbed from anything logged from the URL or a header.
const SECRET_SHAPES = /hp_[A-Za-z0-9_-]{20,}|eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.?[A-Za-z0-9_-]*/g;
// The same shapes, to test a single value (no `g` flag: no `lastIndex` state between calls).
const SECRET_SHAPE = new RegExp(SECRET_SHAPES.source);

/** Whether `value` holds anything {@link scrubSecrets} would redact. */
export function looksLikeSecret(value: string): boolean {
  return SECRET_SHAPE.test(value.includes('%') ? percentDecoded(value).text : value);
}

/**
 * Replaces anything shaped like an API key or a JWT with `[redacted]`, in whatever form it was
 * percent-encoded (`hp%5F…`, a JWT with `%2E`, either case of hex, encoded twice or more): the
 * shapes are looked for in the fully decoded text, and what each came from is redacted in the
 * original, the rest kept as sent. Without a `%` (nearly every request) the value is matched as
 * it is, with no decoding.
 */
export function scrubSecrets(value: string): string {
  if (!value.includes('%')) return value.replace(SECRET_SHAPES, '[redacted]');
  const { text, starts } = percentDecoded(value);
  let scrubbed = '';
  let kept = 0;
  for (const match of text.matchAll(SECRET_SHAPES)) {
    scrubbed += `${value.slice(kept, starts[match.index])}[redacted]`;
    kept = starts[match.index + match[0].length]!;
  }
  return kept === 0 ? value : scrubbed + value.slice(kept);
}
