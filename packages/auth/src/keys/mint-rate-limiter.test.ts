import { describe, expect, it } from 'vitest';
import { MintRateLimiter } from './mint-rate-limiter.js';

describe('MintRateLimiter', () => {
  it('remembers at most maxAccounts accounts, forgetting the least recently seen', () => {
    const limiter = new MintRateLimiter({ max: 1, windowMs: 60_000, maxAccounts: 100 });
    for (let i = 0; i < 10_000; i++) expect(limiter.take(`acct_${i}`, 0)).toBe(0);
    expect(limiter.size).toBeLessThanOrEqual(100);
    // The most recent ones are still limited.
    expect(limiter.take('acct_9999', 0)).toBe(60_000);
  });

  it('forgets accounts whose allowance is whole again', () => {
    const limiter = new MintRateLimiter({ max: 2, windowMs: 1_000 });
    for (let i = 0; i < 50; i++) limiter.take(`acct_${i}`, i * 1_000);
    expect(limiter.size).toBeLessThanOrEqual(2);
  });
});
