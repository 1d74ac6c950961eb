import type { Queryable } from '../queryable.js';

/**
 * `db` whose dedicated sessions stop delivering notifications while `deaf()`: every statement still
 * works (renewals included), as behind a pooler or proxy that loses them.
 */
export function deafenable(db: Queryable, deaf: () => boolean): Queryable {
  const openSession = db.openSession;
  if (openSession === undefined) return db;
  return {
    ...db,
    openSession: async () => {
      const session = await openSession();
      return {
        ...session,
        onNotification(listener): void {
          session.onNotification((channel, payload) => {
            if (!deaf()) listener(channel, payload);
          });
        },
      };
    },
  };
}
