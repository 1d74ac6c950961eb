import { Redis } from 'ioredis';

/**
 * Deletes every Redis key under `prefix` (SCAN and UNLINK, never KEYS or FLUSHALL): what a test or
 * a docs example wrote under a prefix of its own, on a Redis others use.
 */
export async function deleteKeysUnder(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  } finally {
    await redis.quit();
  }
}
