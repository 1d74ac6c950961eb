/**
 * One account's keys as a serial store would hold them, to judge a race: the answers and the end
 * state of operations that ran at once must be those of the operations run one after another, in
 * some order. Answers and states are plain strings, so a failure prints what differed.
 * @internal
 */

/** An operation on the account's keys, by key id (the new key's id for `mint` and `roll`). */
export type LifecycleOp =
  | { readonly kind: 'mint'; readonly id: string; readonly maxActive: number }
  | { readonly kind: 'roll'; readonly oldId: string; readonly id: string; readonly graceEndsAt: number; readonly maxActive: number }
  | { readonly kind: 'revoke'; readonly id: string }
  | { readonly kind: 'revokeAll' };

/** A key of the model: its expiry (ms, `null` never), whether it was rolled or revoked. */
export interface ModelKey {
  readonly expiresAt: number | null;
  readonly rolled: boolean;
  readonly revoked: boolean;
}

/** The account's keys by id, at `now` (the instant that decides what has expired). */
export interface ModelState {
  readonly keys: ReadonlyMap<string, ModelKey>;
  readonly now: number;
}

/** What a store's `findActive` says of a key: `'gone'` (revoked or never stored), `'live'` or `'live until <ms>'`. */
export function keyView(active: { readonly expiresAt: Date | null } | null): string {
  if (active === null) return 'gone';
  return active.expiresAt === null ? 'live' : `live until ${active.expiresAt.getTime()}`;
}

function liveCount(keys: ReadonlyMap<string, ModelKey>): number {
  let n = 0;
  for (const key of keys.values()) if (!key.revoked) n++;
  return n;
}

function rollAnswer(keys: Map<string, ModelKey>, op: Extract<LifecycleOp, { kind: 'roll' }>, now: number): string {
  const old = keys.get(op.oldId);
  if (old === undefined || old.revoked || (old.expiresAt !== null && old.expiresAt <= now)) return 'not_found';
  if (old.rolled) return 'already_rolled';
  if (liveCount(keys) >= op.maxActive) return 'limit';
  const expiresAt = old.expiresAt === null ? op.graceEndsAt : Math.min(old.expiresAt, op.graceEndsAt);
  keys.set(op.oldId, { expiresAt, rolled: true, revoked: false });
  keys.set(op.id, { expiresAt: null, rolled: false, revoked: false });
  return `rolled until ${expiresAt}`;
}

function revokeAllAnswer(keys: Map<string, ModelKey>): string {
  let n = 0;
  for (const [id, key] of keys) {
    if (key.revoked) continue;
    keys.set(id, { ...key, revoked: true });
    n++;
  }
  return `revoked ${n}`;
}

/** Runs `op` on `keys` (changing them) at `now`, and answers as a store does. */
export function applyOp(keys: Map<string, ModelKey>, op: LifecycleOp, now: number): string {
  switch (op.kind) {
    case 'mint':
      if (liveCount(keys) >= op.maxActive) return 'limit';
      keys.set(op.id, { expiresAt: null, rolled: false, revoked: false });
      return 'stored';
    case 'roll':
      return rollAnswer(keys, op, now);
    case 'revoke': {
      const key = keys.get(op.id);
      if (key === undefined || key.revoked) return 'not revoked';
      keys.set(op.id, { ...key, revoked: true });
      return 'revoked';
    }
    case 'revokeAll':
      return revokeAllAnswer(keys);
  }
}

function* permutations(n: number, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === n) yield prefix;
  for (let i = 0; i < n; i++) if (!prefix.includes(i)) yield* permutations(n, [...prefix, i]);
}

/** What `findActive` would say of each of `ids` in `keys`. */
function viewsOf(keys: ReadonlyMap<string, ModelKey>, ids: readonly string[]): Record<string, string> {
  const views: Record<string, string> = {};
  for (const id of ids) {
    const key = keys.get(id);
    views[id] = key === undefined || key.revoked ? 'gone' : keyView({ expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt) });
  }
  return views;
}

/**
 * The order of `ops` (indices) that, run one at a time from `start`, answers `answers` (by op) and
 * ends in `views` (`keyView` of every id in it); `null` when no serial order does.
 */
export function serialOrderOf(
  start: ModelState,
  ops: readonly LifecycleOp[],
  answers: readonly string[],
  views: Readonly<Record<string, string>>,
): number[] | null {
  const ids = Object.keys(views);
  for (const order of permutations(ops.length)) {
    const keys = new Map(start.keys);
    if (!order.every((i) => applyOp(keys, ops[i]!, start.now) === answers[i])) continue;
    const expected = viewsOf(keys, ids);
    if (ids.every((id) => expected[id] === views[id])) return order;
  }
  return null;
}
