import assert from 'node:assert/strict';
import type { KeyEventContext } from '../key-store/key-event.js';
import type { KeyStore, NewKeyRecord } from '../key-store/key-store.js';
import { keyView, serialOrderOf, type LifecycleOp, type ModelKey } from './account-lifecycle-model.js';
import type { KeyStoreSuite } from './key-store-suite.js';
import { sampleKeyRecord } from './sample-key-record.js';

const EVENT: KeyEventContext = { source: 'api', actor: 'user_race', ip: null, userAgent: null, url: null };
const HOUR = 3_600_000;
/** Races per test: enough that a store without one serialization point per account fails. */
const RACES = 16;
/** Each operation of a race starts up to this long after the first: the attack's window was 3 ms. */
const MAX_JITTER_MS = 4;

let races = 0;

/** A key of one race's account, created before the race. */
interface StartKey {
  readonly record: NewKeyRecord;
  readonly model: ModelKey;
}

/** One race: the account's keys before it, and its operations, each on an instance after a delay. */
interface Race {
  readonly accountId: string;
  readonly start: readonly StartKey[];
  readonly ops: readonly LifecycleOp[];
  readonly delays: readonly number[];
}

const jitter = (): number => Math.floor(Math.random() * (MAX_JITTER_MS + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Runs `op` on `store`, answering as {@link applyOp} does. */
async function run(store: KeyStore, race: Race, op: LifecycleOp): Promise<string> {
  const key = (id: string): NewKeyRecord => sampleKeyRecord({ id, accountId: race.accountId, createdAt: new Date(store.now()) });
  const at = new Date(store.now());
  switch (op.kind) {
    case 'mint':
      return (await store.createWithinLimit(key(op.id), op.maxActive, EVENT)) ? 'stored' : 'limit';
    case 'roll': {
      const rolled = await store.roll({
        oldId: op.oldId,
        key: key(op.id),
        graceEndsAt: new Date(op.graceEndsAt),
        maxActive: op.maxActive,
        event: EVENT,
      });
      return rolled.status === 'rolled' ? `rolled until ${rolled.oldExpiresAt.getTime()}` : rolled.status;
    }
    case 'revoke':
      return (await store.revoke(race.accountId, op.id, { at, event: EVENT })) ? 'revoked' : 'not revoked';
    case 'revokeAll':
      return `revoked ${await store.revokeAll(race.accountId, { at, event: EVENT })}`;
  }
}

const after = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What each instance's `findActive` says of every key the race may have stored: the same on both. */
async function viewsAfter(instances: readonly KeyStore[], ids: readonly string[], history: () => string): Promise<Record<string, string>> {
  const all = await Promise.all(instances.map(async (s) => Promise.all(ids.map(async (id) => keyView(await s.findActive(id))))));
  for (const views of all.slice(1)) assert.deepStrictEqual(views, all[0], `the instances disagree: ${history()}`);
  return Object.fromEntries(ids.map((id, i) => [id, all[0]![i]!]));
}

/**
 * Creates the race's keys, runs its operations at once (operation `i` on instance `i % 2`, after
 * its delay), and asserts that a serial order gives what they answered and what both instances see.
 */
async function assertSerial(instances: readonly KeyStore[], race: Race): Promise<void> {
  const [store] = instances;
  await Promise.all(race.start.map(({ record }) => store!.create(record)));
  const now = store!.now();
  const answers = await Promise.all(
    race.ops.map(async (op, i) => {
      await after(race.delays[i]!);
      return run(instances[i % instances.length]!, race, op);
    }),
  );
  const ids = [...race.start.map((k) => k.record.id), ...race.ops.flatMap((op) => ('id' in op && op.kind !== 'revoke' ? [op.id] : []))];
  const history = (): string => JSON.stringify({ start: race.start.map((k) => [k.record.id, k.model]), ops: race.ops, answers });
  const views = await viewsAfter(instances, ids, history);
  const start = { keys: new Map(race.start.map((k) => [k.record.id, k.model])), now };
  assert.notEqual(serialOrderOf(start, race.ops, answers, views), null, `no serial order gives ${JSON.stringify(views)} from ${history()}`);
}

/** A key of `accountId` expiring `expiresIn` ms from the store's now (`null`: never). */
function startKey(store: KeyStore, accountId: string, expiresIn: number | null): StartKey {
  const expiresAt = expiresIn === null ? null : new Date(store.now() + expiresIn);
  const record = sampleKeyRecord({ accountId, expiresAt });
  return { record, model: { expiresAt: expiresAt?.getTime() ?? null, rolled: false, revoked: false } };
}

const newId = (): string => sampleKeyRecord().id;
/** A roll's grace end, an hour from the store's now, in whole ms (as a `Date` holds it). */
const graceEnd = (store: KeyStore): number => Math.floor(store.now()) + HOUR;

/** One race of `ops` (made from the account's start keys) against revokeAll, which starts first or up to the jitter after. */
function againstRevokeAll(store: KeyStore, ops: (start: readonly StartKey[]) => LifecycleOp[]): Race {
  const accountId = `acct_race_${++races}`;
  const start = [startKey(store, accountId, null)];
  return { accountId, start, ops: [...ops(start), { kind: 'revokeAll' }], delays: [0, jitter()] };
}

/** A random race: keys that never expire, expire later, or expired; revokeAll and up to three operations on them and each other's keys. */
function randomRace(store: KeyStore): Race {
  const accountId = `acct_race_${++races}`;
  const start = [null, null, HOUR / 2, 2 * HOUR, -HOUR]
    .slice(0, 2 + Math.floor(Math.random() * 4))
    .map((e) => startKey(store, accountId, e));
  const newIds = [newId(), newId(), newId()];
  const targets = [...start.map((k) => k.record.id), ...newIds];
  const maxActive = pick([start.length, start.length + 1, 100]);
  const graceEndsAt = graceEnd(store);
  const some = (id: string): LifecycleOp =>
    pick<LifecycleOp>([
      { kind: 'mint', id, maxActive },
      { kind: 'roll', oldId: pick(targets), id, graceEndsAt, maxActive },
      { kind: 'revoke', id: pick(targets) },
    ]);
  const ops = [{ kind: 'revokeAll' } as const, ...newIds.slice(0, 1 + Math.floor(Math.random() * 3)).map(some)];
  return { accountId, start, ops, delays: ops.map(jitter) };
}

/**
 * Races of one account's mints, rolls, revocations and revoke-alls, on two instances where the
 * store has a peer: whatever ran at once answers, and leaves every instance seeing, what some
 * serial order of the same operations would. Keys that expired before the race take part.
 * @internal
 */
export function describeKeyRaceConformance({ describe, it, harness }: KeyStoreSuite): void {
  describe('one account’s operations racing each other', () => {
    const instances = (): KeyStore[] => {
      const { store, peer } = harness();
      return peer === undefined ? [store] : [peer, store];
    };

    it('revokeAll racing a roll: the roll’s new key is revoked too, or the roll finds its key revoked', async () => {
      const [store] = instances();
      for (let i = 0; i < RACES; i++) {
        const race = againstRevokeAll(store!, ([old]) => [
          { kind: 'roll', oldId: old!.record.id, id: newId(), graceEndsAt: graceEnd(store!), maxActive: 100 },
        ]);
        await assertSerial(instances(), race);
      }
    });

    it('revokeAll racing a mint: the new key is revoked and counted, or live and not counted', async () => {
      const [store] = instances();
      for (let i = 0; i < RACES; i++)
        await assertSerial(
          instances(),
          againstRevokeAll(store!, () => [{ kind: 'mint', id: newId(), maxActive: 100 }]),
        );
    });

    it('random races of mint, roll, revoke and revokeAll, with expired keys, match a serial order', async () => {
      const [store] = instances();
      for (let i = 0; i < RACES; i++) await assertSerial(instances(), randomRace(store!));
    });
  });
}
