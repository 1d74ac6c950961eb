import { KEY_CHANGES_CHANNEL } from '../key-store-migrations.js';
import { buildMembership } from '../lease/build-membership.js';
import { decodeAnnouncement } from '../lease/change-message.js';
import { CoherentKeyCache } from '../lease/coherent-key-cache.js';
import type { Queryable, SqlExecutor } from '../queryable.js';

/** An in-process database: one {@link Queryable} with `inProcess` set (PGlite). @internal */
export type InProcessQueryable = Queryable & { readonly inProcess: NonNullable<Queryable['inProcess']> };

/** Whether `db` is an in-process database. @internal */
export function isInProcess(db: Queryable): db is InProcessQueryable {
  return db.inProcess !== undefined;
}

/** The longest pause between two attempts at reading the membership (a database not migrated yet). */
const MAX_RETRY_MS = 30_000;

const engines = new WeakMap<object, CoherentKeyCache>();

/**
 * The kept keys and the membership of every active id of an in-process database (PGlite): one per
 * engine, shared by every store over it. The engine has one client, this process, so the
 * membership needs no lease (it holds one that never ends): it is read at open and kept exactly
 * current by the engine's own announcements, the `NOTIFY`s of the triggers that every change of a
 * key fires (mint, roll, revoke, plain SQL through any handle on the engine, `TRUNCATE`), which
 * PGlite delivers before the statement that committed them resolves. A bulk change is re-read at
 * once. Until the membership is read (or when the engine cannot `LISTEN`), a miss is a query.
 * `capacity` and `onError` are those of the first store over the engine.
 * @internal
 */
export function inProcessKeysOf(db: InProcessQueryable, capacity: number, onError: (error: unknown) => void): CoherentKeyCache {
  const { engine } = db.inProcess;
  let keys = engines.get(engine);
  if (keys === undefined) {
    keys = new CoherentKeyCache(capacity, () => 0);
    keys.granted(Number.POSITIVE_INFINITY, 0);
    engines.set(engine, keys);
    new MembershipFeed(db, keys, onError).start(0);
  }
  return keys;
}

/** Feeds one engine's {@link CoherentKeyCache}: LISTEN once, read the membership, re-read it after a bulk change. */
class MembershipFeed {
  readonly #db: InProcessQueryable;
  readonly #keys: CoherentKeyCache;
  readonly #onError: (error: unknown) => void;
  #listening = false;
  #rereading = false;

  constructor(db: InProcessQueryable, keys: CoherentKeyCache, onError: (error: unknown) => void) {
    this.#db = db;
    this.#keys = keys;
    this.#onError = onError;
  }

  /** LISTENs (once), then reads the membership; on failure tries again later, while the engine is open. */
  start(failures: number): void {
    const { inProcess } = this.#db;
    const listen = inProcess.listen;
    if (listen === undefined) return;
    void (async () => {
      try {
        if (!this.#listening) {
          await listen(KEY_CHANGES_CHANNEL, (payload) => this.#heard(payload));
          this.#listening = true;
        }
        // After LISTEN: announcements from here on complete what is read (the cache keeps them
        // until the read is done, and applies those after its revision).
        this.#keys.building();
        const built = await this.#read();
        this.#keys.built(built.members, built.revision, built.cutoffs);
      } catch (error) {
        if (!inProcess.isOpen()) return;
        this.#onError(error);
        const timer = setTimeout(() => this.start(failures + 1), Math.min(MAX_RETRY_MS, 100 * 2 ** failures));
        timer.unref?.();
      }
    })();
  }

  /** `<revision>:<change>`, as on PostgreSQL (see the lease's `RevocationListener`). */
  #heard(payload: string): void {
    const { revision, change } = decodeAnnouncement(payload);
    this.#keys.announced(revision, change);
    if (this.#keys.stale) this.#reread();
  }

  /** After a bulk change: misses are queries until this re-read lands (again, if another bulk change came meanwhile). */
  #reread(): void {
    if (this.#rereading) return;
    this.#rereading = true;
    void this.#read().then(
      (built) => {
        this.#rereading = false;
        this.#keys.rebuilt(built.members, built.revision, built.cutoffs);
        if (this.#keys.stale) this.#reread();
      },
      (error: unknown) => {
        // Left stale (still correct: misses are queries) until the next bulk change.
        this.#rereading = false;
        if (this.#db.inProcess.isOpen()) this.#onError(error);
      },
    );
  }

  /**
   * Every active id, read in one PGlite transaction: PGlite runs one at a time, so no change lands
   * between the revision and the pages (the snapshot the lease's session takes on PostgreSQL).
   */
  #read(): ReturnType<typeof buildMembership> {
    return this.#db.transaction((tx) => buildMembership(inTransaction(tx), 0));
  }
}

/** `tx` as the session {@link buildMembership} begins and commits on: the transaction is PGlite's, already begun. */
function inTransaction(tx: SqlExecutor): SqlExecutor {
  return {
    query: (sql, params, options) => tx.query(sql, params, options),
    exec: (script) => (/^\s*(begin|commit|rollback)\b/i.test(script) ? Promise.resolve() : tx.exec(script)),
  };
}
