/** A deployed drop, as this example keeps it (in memory). */
export interface Drop {
  readonly slug: string;
  readonly owner: string | null;
  readonly bytes: number;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

const ANONYMOUS_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The app's own storage for drops: anonymous drops have no owner and expire after 7 days. */
export class DropStore {
  readonly #drops: Drop[] = [];

  create(owner: string | null, bytes: number, now = new Date()): Drop {
    const drop: Drop = {
      slug: crypto.randomUUID().slice(0, 8),
      owner,
      bytes,
      createdAt: now.toISOString(),
      expiresAt: owner === null ? new Date(now.getTime() + ANONYMOUS_LIFETIME_MS).toISOString() : null,
    };
    this.#drops.push(drop);
    return drop;
  }

  listByOwner(owner: string): Drop[] {
    return this.#drops.filter((drop) => drop.owner === owner);
  }
}
