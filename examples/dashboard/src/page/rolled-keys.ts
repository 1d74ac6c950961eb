import type { Api, KeyInfo } from './api.js';

/** Pages of key events read, at most, to find the rolls of the keys listed. */
const MAX_PAGES = 10;

/**
 * The ids among `keys` that were rolled already, from their `'rolled'` events (the listing does
 * not say): a rolled key is rolled once, so the page offers Roll only on the others. Reads the
 * events newest first, back to the oldest listed key's creation. If they cannot be read, none:
 * the server still refuses a second roll (409).
 */
export async function rolledKeyIds(api: Pick<Api, 'listEvents'>, keys: readonly KeyInfo[]): Promise<ReadonlySet<string>> {
  const rolled = new Set<string>();
  if (keys.length === 0) return rolled;
  const oldest = Math.min(...keys.map((key) => Date.parse(key.createdAt)));
  try {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { events, next } = await api.listEvents(cursor);
      for (const event of events) if (event.type === 'rolled') rolled.add(event.keyId);
      if (next === null || events.some((event) => Date.parse(event.at) < oldest)) break;
      cursor = next;
    }
  } catch {
    // The listing stands without: Roll is offered, and a second roll answers 409.
  }
  return rolled;
}
