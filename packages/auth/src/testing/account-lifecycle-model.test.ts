import { describe, expect, it } from 'vitest';
import { serialOrderOf, type LifecycleOp, type ModelState } from './account-lifecycle-model.js';

const NOW = 1_800_000_000_000;
const GRACE = NOW + 3_600_000;
const start: ModelState = { keys: new Map([['old', { expiresAt: null, rolled: false, revoked: false }]]), now: NOW };
const roll: LifecycleOp = { kind: 'roll', oldId: 'old', id: 'new', graceEndsAt: GRACE, maxActive: 100 };
const ops: LifecycleOp[] = [roll, { kind: 'revokeAll' }];

describe('serialOrderOf', () => {
  it('explains a roll and a revoke-all either way round', () => {
    expect(serialOrderOf(start, ops, [`rolled until ${GRACE}`, 'revoked 2'], { old: 'gone', new: 'gone' })).toEqual([0, 1]);
    expect(serialOrderOf(start, ops, ['not_found', 'revoked 1'], { old: 'gone', new: 'gone' })).toEqual([1, 0]);
  });

  it('finds no serial order for the attack: rolled, revoked 1, and the new key live', () => {
    expect(serialOrderOf(start, ops, [`rolled until ${GRACE}`, 'revoked 1'], { old: 'gone', new: 'live' })).toBeNull();
  });

  it('counts expired keys as revoke-all and the limit do, and refuses to roll them', () => {
    const expired: ModelState = { keys: new Map([['old', { expiresAt: NOW - 1, rolled: false, revoked: false }]]), now: NOW };
    const mint: LifecycleOp = { kind: 'mint', id: 'minted', maxActive: 1 };
    expect(serialOrderOf(expired, [roll, mint], ['not_found', 'limit'], { old: `live until ${NOW - 1}`, minted: 'gone' })).toEqual([0, 1]);
    expect(serialOrderOf(expired, [{ kind: 'revokeAll' }, mint], ['revoked 1', 'stored'], { old: 'gone', minted: 'live' })).toEqual([0, 1]);
  });
});
