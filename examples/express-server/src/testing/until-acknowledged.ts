/** A database handle: the server's own (`running.db`) or a `pg` client. */
interface Queries {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<{ n?: unknown }> }>;
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
