import { afterEach, describe, expect, it } from 'vitest';
import { LastUsedBatcher, type LastUsedBatcherOptions, type LastUseInfo } from './last-used-batcher.js';

const T0 = Date.UTC(2026, 5, 1);
const batchers: LastUsedBatcher[] = [];
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function batcher(options: Partial<LastUsedBatcherOptions> = {}) {
  const written: Array<Map<string, Date>> = [];
  const writtenInfo: Array<Map<string, LastUseInfo>> = [];
  const b = new LastUsedBatcher({
    flush: async (entries, info) => {
      written.push(new Map(entries));
      writtenInfo.push(new Map(info));
    },
    flushIntervalMs: 3_600_000,
    ...options,
  });
  batchers.push(b);
  return { b, written, writtenInfo };
}

afterEach(async () => {
  await Promise.all(batchers.splice(0).map((b) => b.close()));
});

describe('LastUsedBatcher', () => {
  it('records a key at most once a minute, forward only', async () => {
    const { b, written } = batcher();
    b.record('k', new Date(T0));
    b.record('k', new Date(T0 + 59_999)); // within the minute: skipped
    b.record('k', new Date(T0 - 1_000)); // older: skipped
    await b.flush();
    b.record('k', new Date(T0 + 60_000)); // a minute later: recorded
    await b.flush();
    expect(written).toEqual([new Map([['k', new Date(T0)]]), new Map([['k', new Date(T0 + 60_000)]])]);
  });

  it('remembers at most maxTrackedKeys keys, however many distinct keys are used', async () => {
    const { b, written } = batcher({ maxTrackedKeys: 1_000 });
    for (let i = 0; i < 20_000; i++) {
      b.record(`key-${i}`, new Date(T0 + i));
      expect(b.trackedKeys).toBeLessThanOrEqual(1_000);
      expect(b.pendingKeys).toBeLessThanOrEqual(1_000);
      // Requests come over many turns of the event loop; a write started on one ends by the next.
      if (i % 500 === 499) await tick();
    }
    await b.close();
    // Every use was written: a full waiting list starts a write instead of growing.
    const keys = new Set(written.flatMap((batch) => [...batch.keys()]));
    expect(keys.size).toBe(20_000);
    expect(written.every((batch) => batch.size <= 1_000)).toBe(true);
  });

  it('keeps the throttle for the most recently recorded keys when full', async () => {
    const { b, written } = batcher({ maxTrackedKeys: 10 });
    for (let i = 0; i < 100; i++) {
      b.record(`key-${i}`, new Date(T0));
      await tick();
    }
    await b.flush();
    written.length = 0;
    // The last ten are still throttled within the minute; the first ones were forgotten.
    for (let i = 90; i < 100; i++) b.record(`key-${i}`, new Date(T0 + 1_000));
    b.record('key-0', new Date(T0 + 1_000));
    await b.flush();
    expect(written).toEqual([new Map([['key-0', new Date(T0 + 1_000)]])]);
  });

  it('forgets keys whose minute has passed, so a quiet map shrinks', () => {
    const { b } = batcher();
    for (let i = 0; i < 100; i++) b.record(`key-${i}`, new Date(T0 + i * 60_000));
    expect(b.trackedKeys).toBeLessThanOrEqual(2);
  });

  it('skips a use when the waiting list is full and a write is in flight, without losing it for good', async () => {
    let release: () => void = () => {};
    let hold = true;
    const written: string[] = [];
    const b = new LastUsedBatcher({
      flush: (entries) => {
        written.push(...entries.keys());
        if (!hold) return Promise.resolve();
        return new Promise<void>((resolve) => {
          release = () => {
            hold = false;
            resolve();
          };
        });
      },
      flushIntervalMs: 3_600_000,
      maxTrackedKeys: 2,
    });
    batchers.push(b);
    b.record('a', new Date(T0));
    b.record('b', new Date(T0));
    b.record('c', new Date(T0)); // full: starts a write of a, b; c goes in the fresh list
    b.record('d', new Date(T0));
    b.record('e', new Date(T0)); // full while a write is in flight: skipped
    expect(b.pendingKeys).toBe(2);
    release();
    await tick();
    b.record('e', new Date(T0 + 1)); // not marked recorded, so its next use counts
    await b.close();
    expect(written.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  describe('request details for a first use', () => {
    it('calls the thunk only for a use it keeps, and writes its answer with that use', async () => {
      const { b, written, writtenInfo } = batcher();
      let calls = 0;
      const info = (ip: string) => () => {
        calls++;
        return { ip, userAgent: 'agent' };
      };
      b.record('k', new Date(T0), info('192.0.2.1'));
      for (let i = 1; i < 1_000; i++) b.record('k', new Date(T0 + i), info('192.0.2.2')); // throttled
      b.record('other', new Date(T0)); // no thunk: no details
      expect(calls).toBe(1);
      await b.flush();
      expect(written).toEqual([
        new Map([
          ['k', new Date(T0)],
          ['other', new Date(T0)],
        ]),
      ]);
      expect(writtenInfo).toEqual([new Map([['k', { ip: '192.0.2.1', userAgent: 'agent' }]])]);
    });

    it('keeps the details of the use it writes: a newer use replaces them, or drops them when it has none', async () => {
      const { b, writtenInfo } = batcher({ minIntervalMs: 0 });
      b.record('a', new Date(T0), () => ({ ip: 'old' }));
      b.record('a', new Date(T0 + 1), () => ({ ip: 'new' }));
      b.record('b', new Date(T0), () => ({ ip: 'old' }));
      b.record('b', new Date(T0 + 1));
      await b.flush();
      expect(writtenInfo).toEqual([new Map([['a', { ip: 'new', userAgent: null }]])]);
    });

    it('keeps the details with the uses of a failed write, for the retry', async () => {
      let fail = true;
      const seen: Array<Map<string, LastUseInfo>> = [];
      const { b } = batcher({
        flush: async (_entries, info) => {
          seen.push(new Map(info));
          if (fail) throw new Error('database down');
        },
        onError: () => {},
      });
      b.record('k', new Date(T0), () => ({ ip: '192.0.2.9', userAgent: 'ci' }));
      await b.flush();
      fail = false;
      await b.flush();
      expect(seen).toEqual([
        new Map([['k', { ip: '192.0.2.9', userAgent: 'ci' }]]),
        new Map([['k', { ip: '192.0.2.9', userAgent: 'ci' }]]),
      ]);
    });

    it('survives a thunk that throws, and holds bounded strings only', async () => {
      const { b, written, writtenInfo } = batcher();
      expect(() =>
        b.record('k', new Date(T0), () => {
          throw new Error('no request');
        }),
      ).not.toThrow();
      b.record('long', new Date(T0), () => ({ ip: 'x'.repeat(10_000), userAgent: 'y'.repeat(10_000) }));
      await b.flush();
      expect([...written[0]!.keys()]).toEqual(['k', 'long']);
      expect(writtenInfo[0]!.get('k')).toEqual({ ip: null, userAgent: null });
      expect(writtenInfo[0]!.get('long')).toEqual({ ip: 'x'.repeat(64), userAgent: 'y'.repeat(256) });
    });
  });
});
