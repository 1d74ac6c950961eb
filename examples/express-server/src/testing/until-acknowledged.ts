/** A database handle: the server's own (`running.db`) or a `pg` client. */
interface Queries {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/**
 * What an operator waits for after a change in plain SQL (docs/revocation.md): until no instance
 * holding a lease has yet to acknowledge `revision`. From then on every instance answers with it.
 */
export async function untilAcknowledged(db: Queries, revision: string): Promise<void> {
  for (;;) {
    const { rows } = await db.query('select drops_auth_revocation_pending($1) as n', [revision]);
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * An operator's statement in plain SQL, then the wait docs/revocation.md gives for it: the
 * revision read in a statement of its own (as a transaction pooler hands them out), and
 * {@link untilAcknowledged}.
 */
export async function changeInPlainSql(db: Queries, text: string, values: unknown[]): Promise<void> {
  await db.query(text, values);
  const { rows } = await db.query('select revision::text as revision from drops_auth_revision');
  await untilAcknowledged(db, String(rows[0]?.revision));
}
