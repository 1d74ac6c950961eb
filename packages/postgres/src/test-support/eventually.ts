/** Polls `check` every 10 ms until it returns a value other than `undefined`; fails after `ms`. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('eventually: condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
