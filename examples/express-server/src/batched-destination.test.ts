import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchedDestination, type LineWriter } from './batched-destination.js';

function recordingTarget(): LineWriter & { chunks: string[]; flushes: number; syncFlushes: number } {
  return {
    chunks: [],
    flushes: 0,
    syncFlushes: 0,
    write(chunk: string) {
      this.chunks.push(chunk);
    },
    flush(callback?: (error?: Error) => void) {
      this.flushes++;
      callback?.();
    },
    flushSync() {
      this.syncFlushes++;
    },
  };
}

const destinations: BatchedDestination[] = [];
afterEach(() => {
  for (const d of destinations.splice(0)) d.close();
  vi.useRealTimers();
});

function batched(target: LineWriter, batchBytes: number, flushEveryMs = 250): BatchedDestination {
  const d = new BatchedDestination(target, batchBytes, flushEveryMs);
  destinations.push(d);
  return d;
}

describe('BatchedDestination', () => {
  it('hands lines over in one write once a batch is full, in order', () => {
    const target = recordingTarget();
    const d = batched(target, 10);
    d.write('abc\n');
    d.write('def\n');
    expect(target.chunks).toEqual([]);
    d.write('ghi\n');
    expect(target.chunks).toEqual(['abc\ndef\nghi\n']);
    d.write('j\n');
    expect(target.chunks).toEqual(['abc\ndef\nghi\n']);
  });

  it('hands a partial batch over on the timer', () => {
    vi.useFakeTimers();
    const target = recordingTarget();
    const d = batched(target, 1024, 250);
    d.write('one\n');
    vi.advanceTimersByTime(249);
    expect(target.chunks).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(target.chunks).toEqual(['one\n']);
  });

  it('hands everything over on flush and flushSync (pino’s logger.flush, process exit)', () => {
    const target = recordingTarget();
    const d = batched(target, 1024);
    d.write('a\n');
    const done = vi.fn();
    d.flush(done);
    expect(target.chunks).toEqual(['a\n']);
    expect(done).toHaveBeenCalledOnce();
    d.write('b\n');
    d.flushSync();
    expect(target.chunks).toEqual(['a\n', 'b\n']);
    expect(target.syncFlushes).toBe(1);
  });
});
