import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('allows max at once, then one per windowMs / max, per subject', () => {
    const limiter = new RateLimiter({ max: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) expect(limiter.take('203.0.113.7', 0)).toBe(0);
    expect(limiter.take('203.0.113.7', 0)).toBe(20_000);
    expect(limiter.take('198.51.100.1', 0)).toBe(0);
    expect(limiter.take('203.0.113.7', 19_999)).toBe(1);
    expect(limiter.take('203.0.113.7', 20_000)).toBe(0);
    expect(limiter.take('203.0.113.7', 20_000)).toBe(20_000);
  });

  it('remembers at most maxSubjects subjects, forgetting the least recently seen', () => {
    const limiter = new RateLimiter({ max: 1, windowMs: 60_000, maxSubjects: 100 });
    for (let i = 0; i < 10_000; i++) expect(limiter.take(`acct_${i}`, 0)).toBe(0);
    expect(limiter.size).toBeLessThanOrEqual(100);
    // The most recent ones are still limited.
    expect(limiter.take('acct_9999', 0)).toBe(60_000);
  });

  it('forgets subjects whose allowance is whole again', () => {
    const limiter = new RateLimiter({ max: 2, windowMs: 1_000 });
    for (let i = 0; i < 50; i++) limiter.take(`acct_${i}`, i * 1_000);
    expect(limiter.size).toBeLessThanOrEqual(2);
  });
});
