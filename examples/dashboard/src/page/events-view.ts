import type { Api, KeyEventInfo } from './api.js';
import { type Announcer, byId, focus, h } from './dom.js';
import { eventText } from './event-text.js';
import { timeOf } from './format.js';
import { reportError } from './report-error.js';

function itemOf(event: KeyEventInfo): HTMLLIElement {
  const { title, detail, link } = eventText(event);
  const key = event.name !== null && event.name !== '' ? `${event.name} (${event.prefix}…)` : `${event.prefix}…`;
  const how: Array<Node | string> = [];
  if (detail !== '') how.push(`: ${detail}`);
  if (link !== null) how.push(' ', h('a', { href: link, rel: 'noopener noreferrer' }, link));
  return h(
    'li',
    { class: 'event', 'data-event-type': event.type, 'data-key-id': event.keyId },
    h('span', { class: 'event-time' }, timeOf(event.at, event.at)),
    h('span', { class: 'event-what' }, h('strong', {}, title), ' ', key, ...how),
  );
}

/**
 * The account's key events under the keys, newest first: minted, first used, revoked, each with
 * its time and how it happened ("Revoked ci-main (hp_…): found in a public repository at …"),
 * and "Show older activity" while the server has more.
 */
export class EventsView {
  readonly #announcer: Announcer;
  readonly #list = byId('events-list', HTMLOListElement);
  readonly #empty = byId('events-empty', HTMLParagraphElement);
  readonly #more = byId('events-more', HTMLButtonElement);
  #api: Api | null = null;
  #next: string | null = null;

  constructor(announcer: Announcer) {
    this.#announcer = announcer;
    this.#more.addEventListener('click', () => void this.#loadOlder());
  }

  async start(api: Api): Promise<void> {
    this.#api = api;
    await this.refresh();
  }

  stop(): void {
    this.#api = null;
    this.#next = null;
    this.#list.replaceChildren();
    this.#empty.hidden = true;
    this.#more.hidden = true;
  }

  /** Shows the newest page again (after a mint or a revoke). */
  async refresh(): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    this.#list.setAttribute('aria-busy', 'true');
    try {
      const page = await api.listEvents();
      if (this.#api !== api) return;
      this.#list.replaceChildren(...page.events.map(itemOf));
      this.#show(page.next);
    } catch (error) {
      reportError(this.#announcer, error);
    } finally {
      this.#list.removeAttribute('aria-busy');
    }
  }

  async #loadOlder(): Promise<void> {
    const api = this.#api;
    if (api === null || this.#next === null) return;
    this.#more.disabled = true;
    try {
      const page = await api.listEvents(this.#next);
      if (this.#api !== api) return;
      const items = page.events.map(itemOf);
      this.#list.append(...items);
      this.#show(page.next);
      // Keyboard users continue where the new items start; the button may be gone.
      if (items[0] !== undefined) focus(items[0]);
    } catch (error) {
      reportError(this.#announcer, error);
    } finally {
      this.#more.disabled = false;
    }
  }

  #show(next: string | null): void {
    this.#next = next;
    this.#empty.hidden = this.#list.childElementCount > 0;
    this.#more.hidden = next === null;
  }
}
