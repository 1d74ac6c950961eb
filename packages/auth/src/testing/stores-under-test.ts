import type { KeyEventLog } from '../key-store/key-event-log.js';
import type { KeyLookup } from '../key-store/key-lookup.js';
import type { KeyWrites } from '../key-store/key-writes.js';
import type { PendingRevocationQueue } from '../key-store/pending-revocation-queue.js';

/**
 * What each part's conformance tests need of a store: the part itself, and what sets its data up
 * or shows what it did (the hot path needs a key put in and taken out; an event log, the writes
 * that write its events).
 */

/** The hot path's tests: the lookup, and the two writes that put a key in and take it out. */
export type KeyLookupUnderTest = KeyLookup & Pick<KeyWrites, 'create' | 'revoke'>;

/** The writes' tests: the writes, and the lookup that shows what they did. */
export type KeyWritesUnderTest = KeyLookup & KeyWrites;

/** The event log's tests: the writes and notes that write the events it lists. */
export type KeyEventLogUnderTest = KeyWritesUnderTest & KeyEventLog;

/** The pending-revocation queue's tests: the writes whose `revokeMany` carries a request out. */
export type PendingRevocationQueueUnderTest = KeyWritesUnderTest & PendingRevocationQueue;
