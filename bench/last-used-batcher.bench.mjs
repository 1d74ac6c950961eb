/**
 * Last-used batcher with 1M distinct keys in use: every `record` must stay O(1) (no scan of the
 * throttle map, which once cost ~2 ms per record past 100 000 keys) and memory bounded. The floor
 * is a bare `Map.set` over the same keys, measured in the same run.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LastUsedBatcher } from '@drops/auth/internal';
import { interleaved } from './measure.mjs';

const KEYS = 1_000_000;
const CHUNK = 4096;
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Calls `fn(i, now)` in chunks for `ms`, yielding between chunks as requests would; ops/s. */
async function chunkedOpsPerSec(fn, { ms, warmupMs }) {
  let i = 0;
  let now = Date.UTC(2026, 0, 1);
  const loop = async (budget) => {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < budget) {
      // One millisecond of "clock" per chunk: 1M keys come round again well within the minute,
      // so the throttle would hold every key if it could; past its bound it must evict instead.
      const at = new Date(now++);
      for (let j = 0; j < CHUNK; j++) fn(i++ % KEYS, at);
      n += CHUNK;
      await tick();
    }
    return (n * 1000) / (performance.now() - start);
  };
  await loop(warmupMs);
  return loop(ms);
}

export async function run() {
  const bytes = randomBytes(32 * KEYS);
  const ids = Array.from({ length: KEYS }, (_, i) => bytes.toString('hex', i * 32, i * 32 + 32));
  const floorMap = new Map();
  let flushed = 0;
  const batcher = new LastUsedBatcher({
    flush: async (entries) => {
      flushed += entries.size;
    },
    flushIntervalMs: 3_600_000,
  });
  const slice = { ms: 1_000, warmupMs: 300 };
  const { floor, ours } = await interleaved(
    {
      floor: () => chunkedOpsPerSec((i, at) => floorMap.set(ids[i], at.getTime()), slice),
      ours: () => chunkedOpsPerSec((i, at) => batcher.record(ids[i], at), slice),
    },
    3,
  );
  const tracked = batcher.trackedKeys;
  const pending = batcher.pendingKeys;
  await batcher.close();
  if (flushed === 0) throw new Error('nothing recorded');
  if (tracked > 100_000 || pending > 100_000) throw new Error(`unbounded: ${tracked} tracked, ${pending} pending`);
  return [
    { group: 'last used, 1M distinct keys', name: 'floor: Map.set over 1M keys', opsPerSec: floor },
    {
      group: 'last used, 1M distinct keys',
      name: 'LastUsedBatcher.record (bounded at 100 000 keys)',
      opsPerSec: ours,
      ratio: ours / floor,
      target: 0.25,
      note: `1M distinct keys cycling faster than the one-minute throttle, so every record evicts; the batcher ends holding ${tracked} throttled and ${pending} waiting keys (bound 100 000 each).`,
    },
  ];
}
