/**
 * Resolves once `done()` holds, checking every 5 ms, for at most `attempts` checks: a wait for a
 * count of answers, not a timed assertion. Throws naming `what` when it gives up.
 */
export async function until(done: () => boolean, what: string, attempts: number): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (done()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`gave up waiting for ${what}`);
}
