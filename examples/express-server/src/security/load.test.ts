import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';

// The server runs in this process, so this process's heap is the server's.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ROUNDS = 5;
const PER_ROUND = 2_000; // 10 000 requests in all
const CONCURRENCY = 64;

interface Request {
  readonly kind: 'key' | 'token' | 'bad';
  readonly path: string;
  readonly authorization: string;
}

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

describe('bounded load: 10 000 requests at 64 in flight', () => {
  let s: TestServer;
  let keys: string[];
  let tokens: string[];

  beforeAll(async () => {
    s = await startTestServer({ backend: 'postgres', env: { LOG_LEVEL: 'warn' } });
    keys = [];
    for (let i = 0; i < 20; i++) keys.push((await s.mintKey(`load-${i % 5}`)).apiKey);
    tokens = Array.from({ length: 20 }, (_, i) => s.idp!.mintIdToken({ sub: `load-${i % 5}` }));
  }, 60_000);
  afterAll(() => s?.close(), 30_000);

  /** A fresh mix: a third valid keys, a third valid ID tokens, a third bad credentials of every kind. */
  function mix(n: number): Request[] {
    const paths = ['/whoami', '/drops', '/keys', '/billing/plan'];
    const bad = (): string => {
      switch (Math.floor(Math.random() * 6)) {
        case 0:
          return `Bearer hp_${randomBytes(32).toString('base64url')}`; // unknown key
        case 1:
          return `Bearer hp_${randomBytes(8).toString('base64url')}`; // malformed key
        case 2:
          return `Bearer ${s.idp!.mintIdToken({ sub: 'load-x' }, { expiresInSeconds: -60 })}`; // expired
        case 3:
          return `Bearer ${s.idp!.mintIdToken({ aud: 'other' })}`; // misconfigured
        case 4:
          return `Basic ${randomBytes(12).toString('base64')}`;
        default:
          return `Bearer ${randomBytes(48).toString('base64url')}.e30.${randomBytes(64).toString('base64url')}`; // garbage JWT
      }
    };
    return Array.from({ length: n }, (_, i) => {
      const path = paths[i % paths.length]!;
      switch (i % 3) {
        case 0:
          return { kind: 'key', path, authorization: `Bearer ${keys[i % keys.length]}` };
        case 1:
          return { kind: 'token', path, authorization: `Bearer ${tokens[i % tokens.length]}` };
        default:
          return { kind: 'bad', path, authorization: bad() };
      }
    });
  }

  async function round(requests: Request[]): Promise<string[]> {
    const problems: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < requests.length) {
        const r = requests[next++]!;
        const res = await s.fetch(r.path, { headers: { authorization: r.authorization } });
        if (r.kind === 'bad') {
          const snap = await snapshotOf(res);
          if (JSON.stringify(snap) !== JSON.stringify(UNIFORM_401)) problems.push(`bad credential on ${r.path}: ${snap.status}`);
        } else {
          await res.arrayBuffer();
          if (res.status !== 200) problems.push(`valid ${r.kind} on ${r.path}: ${res.status}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return problems;
  }

  it('answers every valid credential with 200 and every bad one with the uniform 401, no 5xx, with a steady heap', async () => {
    const heaps: number[] = [];
    let total = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const requests = mix(PER_ROUND);
      expect(await round(requests)).toEqual([]);
      total += requests.length;
      heaps.push(heapAfterGc());
    }
    expect(total).toBe(10_000);
    // After the first round has warmed caches, pools and JIT, the heap no longer grows with the
    // requests served: the last round ends within a generous margin of the second.
    const growth = heaps[ROUNDS - 1]! - heaps[1]!;
    expect(growth, `heap after each round (MiB): ${heaps.map((h) => (h / 2 ** 20).toFixed(1)).join(', ')}`).toBeLessThan(8 * 2 ** 20);
  }, 120_000);
});
