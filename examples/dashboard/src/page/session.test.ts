import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Session, SessionEndedError, type IdentityGrant, type IdentitySource, type SessionEndReason } from './session.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

function source(outcomes: Array<IdentityGrant | Error>): IdentitySource & { calls: number } {
  const s = {
    accountLabel: 'alice',
    calls: 0,
    refresh: async (): Promise<IdentityGrant> => {
      const next = outcomes[s.calls++] ?? new Error('no more tokens');
      if (next instanceof Error) throw next;
      return next;
    },
    signOut: async (): Promise<void> => {},
  };
  return s;
}

describe('Session', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('refreshes the token five minutes before the hour ends, and again an hour after that', async () => {
    const src = source([
      { idToken: 't2', expiresInMs: HOUR },
      { idToken: 't3', expiresInMs: HOUR },
    ]);
    const ended: SessionEndReason[] = [];
    const session = new Session(src, { idToken: 't1', expiresInMs: HOUR }, { onEnd: (r) => ended.push(r) });

    await vi.advanceTimersByTimeAsync(HOUR - 5 * MINUTE - 1);
    expect(src.calls).toBe(0);
    expect(await session.idToken()).toBe('t1');
    await vi.advanceTimersByTimeAsync(1);
    expect(src.calls).toBe(1);
    expect(await session.idToken()).toBe('t2');
    await vi.advanceTimersByTimeAsync(HOUR - 5 * MINUTE);
    expect(src.calls).toBe(2);
    expect(await session.idToken()).toBe('t3');
    expect(ended).toEqual([]);
  });

  it('retries a failed refresh while the token is good, and ends the session when it cannot', async () => {
    const src = source([new Error('offline'), { idToken: 't2', expiresInMs: HOUR }]);
    const ended: SessionEndReason[] = [];
    const session = new Session(src, { idToken: 't1', expiresInMs: HOUR }, { onEnd: (r) => ended.push(r) });
    await vi.advanceTimersByTimeAsync(HOUR - 5 * MINUTE);
    expect(src.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(src.calls).toBe(2);
    expect(await session.idToken()).toBe('t2');
    expect(ended).toEqual([]);
    session.end('signed-out');

    const failing = source([]);
    const ended2: SessionEndReason[] = [];
    const doomed = new Session(failing, { idToken: 'x', expiresInMs: HOUR }, { onEnd: (r) => ended2.push(r) });
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(ended2).toEqual(['expired']);
    await expect(doomed.idToken()).rejects.toBeInstanceOf(SessionEndedError);
  });

  it('refreshes on demand when asked for a token that is about to expire (a sleeping laptop)', async () => {
    const src = source([{ idToken: 't2', expiresInMs: HOUR }]);
    let now = 0;
    const session = new Session(src, { idToken: 't1', expiresInMs: HOUR }, { onEnd: () => {}, now: () => now });
    expect(await session.idToken()).toBe('t1');
    now = HOUR - MINUTE; // the timer never fired: the machine slept
    expect(await session.idToken()).toBe('t2');
    expect(src.calls).toBe(1);
  });

  it('signs out at the provider too after signing out everywhere, reporting that reason', async () => {
    const ended: SessionEndReason[] = [];
    let providerSignOuts = 0;
    const src = { ...source([]), signOut: async (): Promise<void> => void providerSignOuts++ };
    const session = new Session(src, { idToken: 't1', expiresInMs: HOUR }, { onEnd: (r) => ended.push(r) });
    await session.signOut('signed-out-everywhere');
    expect([ended, providerSignOuts]).toEqual([['signed-out-everywhere'], 1]);
    await expect(session.idToken()).rejects.toThrow('signed out everywhere');
  });

  it('forgets the token when it ends, and reports the reason once', async () => {
    const ended: SessionEndReason[] = [];
    const session = new Session(source([]), { idToken: 't1', expiresInMs: HOUR }, { onEnd: (r) => ended.push(r) });
    session.end('expired');
    await session.signOut();
    expect(ended).toEqual(['expired']);
    expect(session.ended).toBe(true);
    await expect(session.idToken()).rejects.toThrow('the session expired');
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(ended).toEqual(['expired']);
  });
});
