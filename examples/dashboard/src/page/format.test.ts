import { describe, expect, it } from 'vitest';
import { expiresAtIn, expiresAtOfLocal, expiryText } from './format.js';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const at = (ms: number): string => new Date(NOW + ms).toISOString();

describe('expiryText', () => {
  it('says Never for a key without expiry, and Expired from the instant it expires', () => {
    expect(expiryText(null, NOW)).toBe('Never');
    expect(expiryText(at(0), NOW)).toBe('Expired');
    expect(expiryText(at(-86_400_000), NOW)).toBe('Expired');
  });

  it('says how long is left in the largest unit that reads well, rounded', () => {
    expect(expiryText(at(7 * 86_400_000 - 5_000), NOW)).toBe('Expires in 7 days');
    expect(expiryText(at(2 * 86_400_000), NOW)).toBe('Expires in 2 days');
    expect(expiryText(at(36 * 3_600_000), NOW)).toBe('Expires in 36 hours');
    expect(expiryText(at(2 * 3_600_000), NOW)).toBe('Expires in 2 hours');
    expect(expiryText(at(90 * 60_000), NOW)).toBe('Expires in 90 minutes');
    expect(expiryText(at(60_000), NOW)).toBe('Expires in 1 minute');
    expect(expiryText(at(59_000), NOW)).toBe('Expires in less than a minute');
  });
});

describe('expiresAt for a mint', () => {
  it('is RFC 3339 in UTC, days ahead', () => {
    expect(expiresAtIn(30, NOW)).toBe('2026-12-24T12:00:00.000Z');
  });

  it('reads a datetime-local value in the local time zone, and nothing from an empty one', () => {
    expect(expiresAtOfLocal('2026-12-31T23:59')).toBe(new Date(2026, 11, 31, 23, 59).toISOString());
    expect(expiresAtOfLocal('')).toBeNull();
    expect(expiresAtOfLocal('not a date')).toBeNull();
  });
});
