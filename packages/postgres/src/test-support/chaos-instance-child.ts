// One instance of the randomized revocation test as its own node process (run with
// `node --import tsx`), so the test can SIGKILL the real process. It opens a PostgresKeyStore on
// CHAOS_URL and answers the parent's requests over IPC.
import { UnavailableError } from '@drops/auth';
import { openPostgres } from '../open-postgres.js';
import { answersFromMemory } from './answers-from-memory.js';
import { PostgresKeyStore } from '../postgres-key-store.js';

/** What the parent asks for. */
export type ChildCall =
  | { op: 'find'; id: string }
  | { op: 'fromMemory'; id: string }
  | { op: 'revoke'; accountId: string; id: string }
  | { op: 'create'; key: { id: string; accountId: string; prefix: string; name: string | null; createdAt: string } };

/** A request from the parent: a call and its number. */
export type ChildRequest = ChildCall & { n: number };

/** The answer: a value, 'unavailable' (a 503), or any other error. */
export type ChildReply = { n: number; ok: true; value: unknown } | { n: number; ok: false; unavailable: boolean; message: string };

const leaseMs = Number(process.env.CHAOS_LEASE_MS);
const store = new PostgresKeyStore({
  db: await openPostgres({ connectionString: process.env.CHAOS_URL!, connectionTimeoutMs: 300, maxConnections: 5 }),
  closeDatabase: true,
  leaseMs,
  leaseMarginMs: Math.floor(leaseMs / 6),
  queryTimeoutMs: 300,
  onError: () => {},
});

async function answer(request: ChildRequest): Promise<unknown> {
  if (request.op === 'find') return store.findActive(request.id);
  if (request.op === 'fromMemory') return answersFromMemory(store, request.id);
  if (request.op === 'revoke') return store.revoke(request.accountId, request.id, { at: new Date() });
  return store.create({ ...request.key, createdAt: new Date(request.key.createdAt), provenance: null, expiresAt: null });
}

process.on('message', (request: ChildRequest) => {
  answer(request).then(
    (value) => process.send?.({ n: request.n, ok: true, value: value ?? null } satisfies ChildReply),
    (error: unknown) =>
      process.send?.({
        n: request.n,
        ok: false,
        unavailable: error instanceof UnavailableError,
        message: String(error),
      } satisfies ChildReply),
  );
});
process.on('disconnect', () => {
  void store.close().finally(() => process.exit(0));
});
process.send?.({ ready: process.pid });
