import { h } from './dom.js';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A `<time>` for an ISO date, or `fallback` text when there is none. */
export function timeOf(iso: string | null, fallback: string): HTMLElement | string {
  if (iso === null) return fallback;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return h('time', { datetime: iso }, dateTime.format(date));
}

/** `1234` -> `1.2 kB`. */
export function sizeOf(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 'B';
  for (const u of units) {
    if (value < 1000) break;
    value /= 1000;
    unit = u;
  }
  return `${value.toFixed(1)} ${unit}`;
}

/** `300` -> `5 minutes`, `90` -> `90 seconds`, `7200` -> `2 hours`: a span of seconds for people. */
export function durationOf(seconds: number): string {
  const unit = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  if (seconds % 86_400 === 0) return unit(seconds / 86_400, 'day');
  if (seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/** A key expiring within this many milliseconds is flagged (the API's `Drops-Key-Expiration` window). */
export const EXPIRY_WARNING_MS = 7 * 86_400_000;

/**
 * How long until `expiresAt`, for people: `Never`, `Expired`, `Expires in 3 days`, `Expires in 5
 * hours`, `Expires in 12 minutes`, `Expires in less than a minute`. Rounded to the nearest unit.
 */
export function expiryText(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return 'Never';
  const left = new Date(expiresAt).getTime() - now;
  if (Number.isNaN(left)) return expiresAt;
  if (left <= 0) return 'Expired';
  const unit = (count: number, word: string): string => `Expires in ${count} ${word}${count === 1 ? '' : 's'}`;
  if (left >= 2 * 86_400_000) return unit(Math.round(left / 86_400_000), 'day');
  if (left >= 2 * 3_600_000) return unit(Math.round(left / 3_600_000), 'hour');
  if (left >= 60_000) return unit(Math.round(left / 60_000), 'minute');
  return 'Expires in less than a minute';
}

/** The `expiresAt` a mint asks for: `days` from `now`, as RFC 3339 (UTC). */
export function expiresAtIn(days: number, now: number): string {
  return new Date(now + days * 86_400_000).toISOString();
}

/**
 * The `expiresAt` for a `datetime-local` value (`2026-12-31T23:59`, in the browser's time zone),
 * as RFC 3339 (UTC); `null` when it is empty or not a date.
 */
export function expiresAtOfLocal(value: string): string | null {
  if (value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
