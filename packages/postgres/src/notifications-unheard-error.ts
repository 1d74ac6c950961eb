/**
 * A caching {@link PostgresKeyStore}'s listening session does not hear the notifications its own
 * instance sends: the announcements of mints and revocations would never reach it. Behind a
 * transaction-mode pooler, `LISTEN` registers on a server connection the pooler then hands to
 * others, and every notification is dropped. `PostgresKeyStore.ready()` rejects with it when the
 * first listening session fails its check; later sessions that fail it lapse the lease (503s) and
 * are tried again.
 *
 * @example
 * ```ts
 * try {
 *   await store.ready();
 * } catch (error) {
 *   if (error instanceof NotificationsUnheardError) console.error('give the store a direct listenConnectionString');
 *   throw error;
 * }
 * ```
 */
export class NotificationsUnheardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationsUnheardError';
  }
}
