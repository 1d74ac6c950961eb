import {
  KEY_EVENTS_TABLE,
  KEYS_TABLE,
  LEASES_TABLE,
  PENDING_REVOCATIONS_TABLE,
  RATE_LIMITS_TABLE,
  EXPIRY_NOTICES_TABLE,
  WEBHOOK_OUTBOX_TABLE,
  WEBHOOKS_TABLE,
  REVISION_TABLE,
  SESSION_CUTOFFS_TABLE,
  REVOCATION_PENDING_FUNCTION,
  REVOKE_KEY_FUNCTION,
  TAKE_REVISION_FUNCTION,
  TAKEN_REVISION_FUNCTION,
  ANNOUNCE_CHANGE_FUNCTION,
} from './key-store-migrations.js';
import { MIGRATIONS_TABLE } from './migrate.js';

// A plain role name: what `grant` interpolates (quoted), so nothing else ever reaches the SQL.
const ROLE = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * The SQL that gives a login role exactly what a {@link PostgresKeyStore} needs at run time: USAGE
 * on the schema, DML on the store's tables, their sequences, EXECUTE on its functions, and read
 * access to the migration record (to check the schema is current). Nothing that creates or alters
 * objects; LISTEN needs no grant. What `drops-auth-postgres grant <role>` runs (after `migrate`).
 *
 * @example
 * ```ts
 * await db.exec(grantKeyStoreSql('drops_app'));
 * ```
 */
export function grantKeyStoreSql(role: string): string {
  if (typeof role !== 'string' || !ROLE.test(role)) {
    throw new TypeError('grantKeyStoreSql: role must be a plain role name (letters, digits and _, at most 63)');
  }
  const to = `to "${role}"`;
  return `${[
    `do $grant$ begin execute format('grant usage on schema %I ${to.replaceAll("'", "''")}', current_schema()); end $grant$`,
    `grant select, insert, update, delete on ${KEYS_TABLE}, ${KEY_EVENTS_TABLE}, ${REVISION_TABLE}, ${LEASES_TABLE}, ${PENDING_REVOCATIONS_TABLE}, ${RATE_LIMITS_TABLE}, ${WEBHOOKS_TABLE}, ${WEBHOOK_OUTBOX_TABLE}, ${EXPIRY_NOTICES_TABLE}, ${SESSION_CUTOFFS_TABLE} ${to}`,
    `grant usage, select on sequence ${KEY_EVENTS_TABLE}_seq_seq, ${PENDING_REVOCATIONS_TABLE}_id_seq, ${WEBHOOK_OUTBOX_TABLE}_id_seq ${to}`,
    `grant select on ${MIGRATIONS_TABLE} ${to}`,
    `grant execute on function ${REVOKE_KEY_FUNCTION}(text, text, timestamptz) ${to}`,
    `grant execute on function ${REVOKE_KEY_FUNCTION}(text, text, timestamptz, text, text, text, text, text) ${to}`,
    `grant execute on function ${REVOCATION_PENDING_FUNCTION}(bigint) ${to}`,
    // Called by every announcing trigger, and by the store in a mint's or roll's transaction.
    `grant execute on function ${TAKE_REVISION_FUNCTION}(), ${TAKEN_REVISION_FUNCTION}(), ${ANNOUNCE_CHANGE_FUNCTION}(text) ${to}`,
  ].join(';\n')};\n`;
}
