import type { Api, DropInfo } from './api.js';
import { type Announcer, byId, h } from './dom.js';
import { sizeOf, timeOf } from './format.js';
import { reportError } from './report-error.js';

/** The account's drops, newest first, with a "Refresh drops" button. */
export class DropsView {
  readonly #announcer: Announcer;
  readonly #empty = byId('drops-empty', HTMLDivElement);
  readonly #example = byId('deploy-example', HTMLElement);
  readonly #table = byId('drops-table', HTMLTableElement);
  readonly #body = byId('drops-body', HTMLTableSectionElement);
  readonly #refresh = byId('refresh-drops', HTMLButtonElement);
  #api: Api | null = null;

  constructor(announcer: Announcer, baseUrl: string) {
    this.#announcer = announcer;
    this.#example.textContent = `curl -H "Authorization: Bearer $DROPS_API_KEY" \\\n  --data-binary @index.html ${baseUrl}/deploy`;
    this.#refresh.addEventListener('click', () => void this.refresh(true));
  }

  async start(api: Api): Promise<void> {
    this.#api = api;
    await this.refresh(false);
  }

  stop(): void {
    this.#api = null;
    this.#body.replaceChildren();
    this.#table.hidden = true;
    this.#empty.hidden = true;
  }

  async refresh(announce: boolean): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    this.#refresh.disabled = true;
    this.#table.setAttribute('aria-busy', 'true');
    try {
      const drops = await api.listDrops();
      if (this.#api !== api) return;
      this.#render(drops);
      if (announce) this.#announcer.status(`${drops.length} ${drops.length === 1 ? 'drop' : 'drops'}.`);
    } catch (error) {
      reportError(this.#announcer, error);
    } finally {
      this.#refresh.disabled = false;
      this.#table.removeAttribute('aria-busy');
    }
  }

  #render(drops: readonly DropInfo[]): void {
    this.#empty.hidden = drops.length > 0;
    this.#table.hidden = drops.length === 0;
    this.#body.replaceChildren(
      ...drops.map((drop) =>
        h(
          'tr',
          {},
          h('td', {}, /^https?:\/\//.test(drop.url) ? h('a', { href: drop.url, rel: 'noopener noreferrer' }, drop.slug) : drop.slug),
          h('td', {}, timeOf(drop.createdAt, '')),
          h('td', {}, timeOf(drop.updatedAt, '')),
          h('td', {}, timeOf(drop.expiresAt, 'Never')),
          h('td', {}, sizeOf(drop.size)),
        ),
      ),
    );
  }
}
