import { describe, expect, it } from 'vitest';
import { inProcessRateLimitStore } from './rate-limit-store.js';

describe('inProcessRateLimitStore', () => {
  it('counts each scope and each subject apart, on the clock given', async () => {
    const time = { now: 0 };
    const store = inProcessRateLimitStore({ clock: () => time.now });
    const limit = { max: 2, windowMs: 60_000 };
    expect([await store.take('mint', 'acct_1', limit), await store.take('mint', 'acct_1', limit)]).toEqual([0, 0]);
    expect(await store.take('mint', 'acct_1', limit)).toBe(30_000);
    expect(await store.take('mint', 'acct_2', limit)).toBe(0);
    expect(await store.take('revoke_by_value', 'acct_1', limit)).toBe(0);
    time.now += 30_000;
    expect(await store.take('mint', 'acct_1', limit)).toBe(0);
    expect(await store.take('mint', 'acct_1', limit)).toBe(30_000);
  });
});
