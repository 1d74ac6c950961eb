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
