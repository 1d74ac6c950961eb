import { UnavailableError } from '@drops/auth';
import { sampleKeyRecord, type TcpProxy } from '@drops/auth/testing';
import type { ActiveKey, NewKeyRecord } from '@drops/auth';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { answersFromMemory } from './answers-from-memory.js';
import { deafenable } from './deafenable.js';
import { proxyInFront } from './proxy-in-front.js';
import type { ChildCall, ChildReply } from './chaos-instance-child.js';
import { openPostgres } from '../open-postgres.js';
import { PostgresKeyStore } from '../postgres-key-store.js';
import type { Queryable } from '../queryable.js';
import type { RevocationWait } from '../lease/wait-for-acknowledgements.js';

/** What {@link runRevocationChaos} is given. */
export interface ChaosOptions {
  /** URL of a migrated database. */
  readonly url: string;
  /** A direct connection to it (operator revocations, dropping LISTEN sessions). */
  readonly direct: Queryable;
  readonly seed: number;
  readonly durationMs: number;
  readonly instances?: number;
  readonly leaseMs?: number;
}

/** What happened, and every violation the checker found (empty when safe). */
export interface ChaosReport {
  readonly seed: number;
  readonly requests: { accepted: number; refused: number; unavailable: number };
  /** Keys minted on one instance and used at once on another (refused there: a violation). */
  readonly mints: { returned: number; usedElsewhere: number; unavailable: number; failed: number };
  /**
   * Requests with random ids nobody minted: refused, or unavailable (a 503); `whileHeld`, the 503s
   * answered while the instance held its lease (before and after), each a violation.
   */
  readonly flood: { refused: number; unavailable: number; whileHeld: number };
  readonly revocationsReturned: number;
  readonly revocationsFailed: number;
  readonly faults: Record<string, number>;
  readonly waits: RevocationWait[];
  readonly violations: string[];
}

/** mulberry32: a small seeded PRNG, so a failing run can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How an instance answered one request: 200, 401 or 503. */
type Outcome = 'accepted' | 'refused' | 'unavailable';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One instance as the test drives it: in this process, or a child process it can SIGKILL. */
interface Slot {
  proxy: TcpProxy;
  alive: boolean;
  /** In process only: whether its listening sessions hear notifications (`deafen(false)` again). */
  deafen?: (deaf: boolean) => void;
  findActive(id: string): Promise<ActiveKey | null>;
  /** Whether the instance answers `id` from memory now (it holds its lease and knows the key). */
  fromMemory(id: string): Promise<boolean>;
  revoke(accountId: string, id: string): Promise<boolean>;
  create(key: NewKeyRecord): Promise<void>;
  /** In process: every connection destroyed. Child: SIGKILL. Either way it never answers again. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./chaos-instance-child.ts', import.meta.url));

/** A child node process (`node --import tsx`, no wrapper) running one store, driven over IPC. */
async function childSlot(proxy: TcpProxy, url: string, leaseMs: number): Promise<Slot> {
  const child: ChildProcess = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, CHAOS_URL: url, CHAOS_LEASE_MS: String(leaseMs) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // Not events.once: it rejects when the child emits 'error' (a send to a child dying under
  // SIGKILL fails with EPIPE), and then the calls in flight would never be answered: the test hung.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  let next = 0;
  child.on('message', (m: ChildReply | { ready: number }) => {
    if ('ready' in m) return;
    const p = pending.get(m.n);
    pending.delete(m.n);
    if (m.ok) p?.resolve(m.value);
    else p?.reject(m.unavailable ? new UnavailableError('key_store') : new Error(m.message));
  });
  void exited.then(() => {
    for (const p of pending.values()) p.reject(new UnavailableError('key_store'));
    pending.clear();
  });
  const [ready] = (await Promise.race([once(child, 'message'), exited.then(() => [null])])) as [{ ready: number } | null];
  if (ready === null) throw new Error('chaos instance child exited before it was ready');
  const call = (request: ChildCall): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new UnavailableError('key_store'));
      const n = next++;
      pending.set(n, { resolve, reject });
      // A send that fails (the child is dying) answers its call as an instance that is gone does.
      child.send({ ...request, n }, (error) => {
        if (error === null || !pending.delete(n)) return;
        reject(new UnavailableError('key_store'));
      });
    });
  const slot: Slot = {
    proxy,
    alive: true,
    findActive: (id) => call({ op: 'find', id }) as Promise<ActiveKey | null>,
    fromMemory: (id) => call({ op: 'fromMemory', id }) as Promise<boolean>,
    revoke: (accountId, id) => call({ op: 'revoke', accountId, id }) as Promise<boolean>,
    create: async (key) => {
      const { id, accountId, prefix, name } = key;
      await call({ op: 'create', key: { id, accountId, prefix, name, createdAt: key.createdAt.toISOString() } });
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
      await proxy.close();
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.disconnect();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  return slot;
}

/**
 * The randomized test of issue 13 (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md): instances on one database, each through
 * its own TCP proxy that is cut (connections reset), black-holed (bytes vanish, nothing closes)
 * and healed, under concurrent key use and revocations on random instances (and by an operator in
 * SQL), with LISTEN sessions dropped alone, an instance whose listening sessions stop hearing
 * notifications for a while (its statements still work), and an instance killed mid-revoke and restarted: the
 * last instance is its own node process (test-support/chaos-instance-child.ts, forked with
 * `--import tsx`, no wrapper), SIGKILLed while a revocation runs on it and started again. Meanwhile
 * keys are minted on one instance and used at once on another (issue 25: a key works everywhere
 * once its mint returned), and random ids nobody minted flood every instance. The checker fails any
 * request that started after a revocation of its key returned and was accepted, any request refused
 * for a key whose revocation had not started when it ended (a minted key included), any random id
 * accepted, and any random id answered 503 by an instance that held its lease before and after
 * (it answers a known key from memory).
 */
export async function runRevocationChaos(options: ChaosOptions): Promise<ChaosReport> {
  const random = prng(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const between = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo));
  const leaseMs = options.leaseMs ?? 600;
  const waits: RevocationWait[] = [];
  const faults: Record<string, number> = {};
  const fault = (name: string): void => {
    faults[name] = (faults[name] ?? 0) + 1;
  };

  async function startSlot(kind: 'in process' | 'child'): Promise<Slot> {
    const { proxy, url } = await proxyInFront(options.url);
    if (kind === 'child') return childSlot(proxy, url, leaseMs);
    let deaf = false;
    const db = deafenable(await openPostgres({ connectionString: url, connectionTimeoutMs: 300, maxConnections: 5 }), () => deaf);
    const store = new PostgresKeyStore({
      db,
      closeDatabase: true,
      leaseMs,
      leaseMarginMs: Math.floor(leaseMs / 6),
      queryTimeoutMs: 300,
      onError: () => {},
      onRevocationWait: (w) => waits.push(w),
    });
    return {
      proxy,
      alive: true,
      deafen: (value) => {
        deaf = value;
      },
      findActive: async (id) => store.findActive(id),
      fromMemory: async (id) => answersFromMemory(store, id),
      revoke: (accountId, id) => store.revoke(accountId, id, { at: new Date() }),
      create: (key) => store.create(key),
      async kill() {
        await proxy.close();
        void store.close().catch(() => {});
      },
      close: () => store.close(),
    };
  }

  // The last instance is a child process: the one the test kills (SIGKILL) and restarts.
  const count = options.instances ?? 3;
  const killable = count - 1;
  const slots: Slot[] = [];
  for (let i = 0; i < count; i++) slots.push(await startSlot(i === killable ? 'child' : 'in process'));
  const retired: Slot[] = [];

  // Keys, and the time (performance.now) at which a revocation of each was first started / returned.
  const keys: NewKeyRecord[] = [];
  const revokeStarted = new Map<string, number>();
  const revokeReturned = new Map<string, number>();
  // The first keys are set up through the direct connection, not through an instance whose 300 ms
  // timeouts a loaded machine can miss before the run even starts.
  const setup = new PostgresKeyStore({ db: options.direct, cache: false });
  for (let i = 0; i < 30; i++) {
    const key = sampleKeyRecord({ accountId: `acct_chaos_${i % 5}` });
    await setup.create(key);
    keys.push(key);
  }
  // Never revoked: an instance that answers it from memory holds its lease.
  const canary = sampleKeyRecord({ accountId: 'acct_chaos_canary' });
  await setup.create(canary);
  await setup.close();

  const counts = { accepted: 0, refused: 0, unavailable: 0 };
  const mints = { returned: 0, usedElsewhere: 0, unavailable: 0, failed: 0 };
  const flood = { refused: 0, unavailable: 0, whileHeld: 0 };
  const violations: string[] = [];
  let revocationsReturned = 0;
  let revocationsFailed = 0;
  let stop = false;
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  // Half the requests go to keys whose revocation just started: where a stale cache would show.
  const recent: NewKeyRecord[] = [];
  async function request(slot: Slot, key = recent.length > 0 && random() < 0.5 ? pick(recent) : pick(keys)): Promise<Outcome | undefined> {
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = (await slot.findActive(key.id)) === null ? 'refused' : 'accepted';
    } catch (error) {
      if (!(error instanceof UnavailableError)) {
        violations.push(`unexpected error: ${String(error)}`);
        return undefined;
      }
      outcome = 'unavailable';
    }
    const ended = performance.now();
    if (!slot.alive) return undefined; // a killed instance answers nobody
    counts[outcome]++;
    const returned = revokeReturned.get(key.id);
    if (outcome === 'accepted' && returned !== undefined && started > returned) {
      violations.push(
        `key ${key.id.slice(0, 8)} accepted by a request started ${(started - returned).toFixed(1)} ms after its revocation returned`,
      );
    }
    const revoking = revokeStarted.get(key.id);
    if (outcome === 'refused' && (revoking === undefined || revoking > ended)) {
      violations.push(`active key ${key.id.slice(0, 8)} refused (a 401 for a valid key)`);
    }
    return outcome;
  }

  /** A random id nobody minted: never accepted; a 503 only when the instance did not hold its lease. */
  async function floodRequest(slot: Slot): Promise<void> {
    const id = sampleKeyRecord().id;
    const heldBefore = await slot.fromMemory(canary.id).catch(() => false);
    let outcome: Outcome;
    try {
      outcome = (await slot.findActive(id)) === null ? 'refused' : 'accepted';
    } catch (error) {
      if (!(error instanceof UnavailableError)) {
        violations.push(`unexpected error: ${String(error)}`);
        return;
      }
      outcome = 'unavailable';
    }
    const heldAfter = await slot.fromMemory(canary.id).catch(() => false);
    if (!slot.alive) return;
    if (outcome === 'accepted') violations.push(`random id ${id.slice(0, 8)} nobody minted accepted`);
    else flood[outcome]++;
    if (outcome === 'unavailable' && heldBefore && heldAfter) {
      flood.whileHeld++;
      violations.push(`random id ${id.slice(0, 8)} answered 503 while the instance held its lease`);
    }
  }

  function revoke(slot: Slot | 'operator', key: NewKeyRecord): Promise<void> {
    if (!revokeStarted.has(key.id)) revokeStarted.set(key.id, performance.now());
    recent.push(key);
    if (recent.length > 4) recent.shift();
    const done = (): void => {
      const now = performance.now();
      if (!revokeReturned.has(key.id)) revokeReturned.set(key.id, now);
      revocationsReturned++;
    };
    const call =
      slot === 'operator'
        ? (async (): Promise<void> => {
            const { rows } = await options.direct.query<{ revision: string | null }>('select revision from drops_auth_revoke_key($1)', [
              key.id,
            ]);
            for (;;) {
              const { rows: p } = await options.direct.query<{ n: number }>('select drops_auth_revocation_pending($1) as n', [
                rows[0]?.revision ?? 0,
              ]);
              if (p[0]?.n === 0) return;
              await sleep(10);
            }
          })()
        : slot.revoke(key.accountId, key.id).then(() => {});
    return track(
      call.then(
        () => {
          if (slot === 'operator' || slot.alive) done();
        },
        () => {
          revocationsFailed++;
        },
      ),
    );
  }

  const liveSlots = (): Slot[] => slots.filter((s) => s.alive);

  const clients = Array.from({ length: 15 }, async (_, n) => {
    while (!stop) {
      const slot = slots[n % slots.length]!;
      if (slot.alive) await request(slot);
      await sleep(between(0, 4));
    }
  });

  const revoker = (async (): Promise<void> => {
    while (!stop) {
      await sleep(between(20, 120));
      const key = pick(keys);
      void revoke(random() < 0.12 ? 'operator' : pick(liveSlots()), key);
    }
  })();

  /**
   * Mints a key on `on`, then uses it on `elsewhere` until that answers (a 503 is allowed while it
   * holds no lease; every try starts after the mint returned, so each is checked: once a mint has
   * returned, every instance knows the key).
   */
  async function mintThenUse(on: Slot, elsewhere: Slot): Promise<void> {
    const key = sampleKeyRecord({ accountId: `acct_chaos_${between(0, 5)}` });
    try {
      await on.create(key);
    } catch {
      mints.failed++; // a 503: the key may exist or not, and is never used
      return;
    }
    if (!on.alive) return;
    mints.returned++;
    let outcome = await request(elsewhere, key);
    for (let tries = 1; outcome === 'unavailable' && tries < 20; tries++) {
      mints.unavailable++;
      await sleep(between(20, 100));
      outcome = await request(elsewhere, key);
    }
    if (outcome === 'accepted') mints.usedElsewhere++;
    keys.push(key);
  }

  // Mints on one instance, each new key used at once on another (only the child instance is ever
  // killed: an in-process one is always there).
  const minter = (async (): Promise<void> => {
    while (!stop) {
      await sleep(between(10, 60));
      const on = pick(liveSlots());
      await mintThenUse(on, pick(liveSlots().filter((s) => s !== on)));
    }
  })();

  // Random ids nobody minted, from two clients at once, on every instance.
  const flooders = Array.from({ length: 2 }, async () => {
    while (!stop) {
      const slot = pick(slots);
      if (slot.alive) await floodRequest(slot);
      await sleep(between(1, 6));
    }
  });

  // Faults overlap: each runs on its own, one at a time per instance. The first four are one of
  // each kind (in a seeded order), so even a short run has them all; then they are drawn at random.
  const busy = new Set<number>();
  const kinds = ['cut', 'stall', 'listen', 'kill', 'deaf'];
  const firstFaults = kinds
    .map((k) => ({ k, r: random() }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.k);
  async function inject(index: number, action: string): Promise<void> {
    const slot = slots[index]!;
    if (action === 'cut') {
      fault('cut');
      slot.proxy.cut();
      await sleep(between(50, 600));
      slot.proxy.restore();
    } else if (action === 'stall') {
      fault('black hole');
      slot.proxy.stall();
      await sleep(between(50, Math.floor(leaseMs * 2)));
      slot.proxy.restore();
    } else if (action === 'listen') {
      fault('LISTEN session dropped');
      const { rows } = await options.direct.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
           and (query like 'with renewed%' or query like 'with gone%' or query like 'listen%')`,
      );
      if (rows.length > 0) await options.direct.query('select pg_terminate_backend($1)', [pick(rows).pid]);
    } else if (action === 'deaf') {
      // Statements and renewals go on; notifications vanish (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md#a-lease-means-hearing).
      fault('announcements lost');
      slot.deafen?.(true);
      await sleep(between(leaseMs, leaseMs * 3));
      slot.deafen?.(false);
    } else if (action === 'kill') {
      fault('killed mid-revoke');
      // A revocation starts on the child instance, which is SIGKILLed a few ms later: committed or
      // not. A new process takes its place.
      const victim = slots[killable]!;
      void revoke(victim, pick(keys));
      await sleep(between(0, 10));
      victim.alive = false;
      await victim.kill();
      retired.push(victim);
      await sleep(between(100, 400));
      slots[killable] = await startSlot('child');
    }
  }
  const faultsDone: Promise<void>[] = [];
  const chaos = (async (): Promise<void> => {
    while (!stop) {
      await sleep(between(60, 200));
      if (stop) break;
      const free = slots.map((_, i) => i).filter((i) => !busy.has(i));
      if (free.length === 0) continue;
      const action = firstFaults[0] ?? pick(['cut', 'stall', 'stall', 'listen', 'kill', 'deaf', 'none']);
      // Only the child instance is killed (and restarted); only one in process is deafened.
      const inProcess = free.filter((i) => i !== killable);
      const index = action === 'kill' ? killable : action === 'deaf' ? (inProcess.length > 0 ? pick(inProcess) : 0) : pick(free);
      if (busy.has(index)) continue;
      firstFaults.shift();
      busy.add(index);
      faultsDone.push(inject(index, action).finally(() => busy.delete(index)));
    }
  })();

  await sleep(options.durationMs);
  stop = true;
  await Promise.all([chaos, revoker, minter, ...clients, ...flooders]);
  await Promise.all(faultsDone);
  for (const s of slots) {
    s.proxy.restore();
    s.deafen?.(false);
  }
  await Promise.all([...inFlight]);
  // Healed: on each instance, random ids and then keys minted on the next one, in turns (issue 25:
  // keys minted on A work on B at once, though B had just answered random keys).
  for (const [i, on] of slots.entries()) {
    const elsewhere = slots[(i + 1) % slots.length]!;
    for (let n = 0; n < 5; n++) {
      await floodRequest(elsewhere);
      await mintThenUse(on, elsewhere);
    }
  }
  await Promise.all([...slots, ...retired].map((s) => s.close().catch(() => {})));
  await Promise.all([...slots, ...retired].map((s) => s.proxy.close()));
  return { seed: options.seed, requests: counts, mints, flood, revocationsReturned, revocationsFailed, faults, waits, violations };
}
