import type { Queryable } from '../queryable.js';

/** A {@link Queryable} that counts the statements sent through it, by statement name. */
export interface CountingQueryable {
  readonly db: Queryable;
  /** Statements sent with this name (or every statement, without one) since the start. */
  count(name?: string): number;
}

/** Wraps `db` (its pool queries; its dedicated sessions and in-process engine pass through uncounted). */
export function countingQueryable(inner: Queryable): CountingQueryable {
  const counts = new Map<string, number>();
  let total = 0;
  const db: Queryable = {
    query(sql, params, options) {
      total++;
      const name = options?.name ?? '';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return inner.query(sql, params, options);
    },
    exec: (script) => inner.exec(script),
    transaction: (fn) => inner.transaction(fn),
    close: () => inner.close(),
    ...(inner.openSession !== undefined ? { openSession: inner.openSession } : {}),
    ...(inner.inProcess !== undefined ? { inProcess: inner.inProcess } : {}),
  };
  return { db, count: (name) => (name === undefined ? total : (counts.get(name) ?? 0)) };
}
