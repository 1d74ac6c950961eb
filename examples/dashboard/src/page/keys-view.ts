import { ApiError, type Api, type KeyInfo, type MintedKey } from './api.js';
import { type Announcer, byId, focus, h } from './dom.js';
import { durationOf, EXPIRY_WARNING_MS, expiresAtIn, expiresAtOfLocal, expiryText, timeOf } from './format.js';
import { reportError } from './report-error.js';
import { ConfirmDialog } from './modal-dialog.js';
import { plural } from './plural.js';
import { rolledKeyIds } from './rolled-keys.js';

const labelOf = (key: { name: string | null; prefix: string }): string =>
  key.name !== null && key.name !== '' ? `${key.name} (${key.prefix}…)` : `${key.prefix}…`;

/** `2026-12-31T23:59`: a date in the browser's time zone, as a `datetime-local` input holds it. */
const localDateTime = (date: Date): string => {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** "Expires in 3 days" (flagged within the API's warning window) or "Expired", then the date. */
const expiryCell = (expiresAt: string | null, now: number): HTMLTableCellElement => {
  const left = expiresAt === null ? Number.POSITIVE_INFINITY : new Date(expiresAt).getTime() - now;
  const text = h('span', left < EXPIRY_WARNING_MS ? { class: 'expiring-soon' } : {}, expiryText(expiresAt, now));
  return expiresAt === null ? h('td', {}, text) : h('td', {}, text, h('br'), timeOf(expiresAt, ''));
};

/**
 * Mint, list and revoke keys. After a mint, focus goes to the secret; after "I have saved it" or
 * a revoke, to the list's heading; after a cancelled revoke, back to its button. `onChange` runs
 * after a mint, a revoke or "Refresh keys" (the key activity shows it).
 */
export class KeysView {
  readonly #announcer: Announcer;
  readonly #onChange: () => void;
  readonly #form = byId('mint-form', HTMLFormElement);
  readonly #nameInput = byId('key-name', HTMLInputElement);
  readonly #expiry = byId('key-expiry', HTMLSelectElement);
  readonly #expiryCustom = byId('key-expiry-custom', HTMLDivElement);
  readonly #expiryAt = byId('key-expiry-at', HTMLInputElement);
  readonly #mintButton = byId('mint-button', HTMLButtonElement);
  readonly #secretPanel = byId('secret-panel', HTMLFieldSetElement);
  readonly #secretName = byId('secret-name', HTMLSpanElement);
  readonly #secret = byId('secret', HTMLInputElement);
  readonly #copy = byId('copy-secret', HTMLButtonElement);
  readonly #done = byId('secret-done', HTMLButtonElement);
  readonly #heading = byId('keys-heading', HTMLHeadingElement);
  readonly #refresh = byId('refresh-keys', HTMLButtonElement);
  readonly #empty = byId('keys-empty', HTMLParagraphElement);
  readonly #table = byId('keys-table', HTMLTableElement);
  readonly #body = byId('keys-body', HTMLTableSectionElement);
  readonly #revokeDialog = new ConfirmDialog({
    id: 'revoke',
    question: 'Revoke key',
    description: 'Revocation is immediate: every pipeline using this key gets 401 from its next request. It cannot be undone.',
    confirm: 'Revoke key',
    danger: true,
  });
  readonly #rollGrace = h(
    'select',
    { id: 'roll-grace', name: 'grace' },
    h('option', { value: '0' }, 'No overlap: it stops now'),
    h('option', { value: '3600' }, '1 hour'),
    h('option', { value: '86400', selected: '' }, '1 day'),
    h('option', { value: '604800' }, '7 days'),
  );
  readonly #rollDialog = new ConfirmDialog({
    id: 'roll',
    question: 'Roll key',
    description:
      'A new key with the same name replaces it, shown once. The old key keeps working for the overlap you choose, ' +
      'so your pipelines can switch to the new one; then it expires. A key is rolled only once.',
    fields: [h('label', { for: 'roll-grace' }, 'The old key keeps working for'), this.#rollGrace],
    confirm: 'Roll key',
    danger: false,
  });
  readonly #revokeAll = byId('revoke-all', HTMLButtonElement);
  readonly #revokeAllDialog = new ConfirmDialog({
    id: 'revoke-all',
    question: 'Revoke all',
    description:
      'Every key of this account is revoked at once: every pipeline using any of them gets 401 from its next request. ' +
      'It cannot be undone.',
    confirm: 'Revoke all keys',
    danger: true,
  });
  #shownCount = 0;
  #api: Api | null = null;
  #secretKeyId: string | null = null;

  constructor(announcer: Announcer, onChange: () => void = () => {}) {
    this.#announcer = announcer;
    this.#onChange = onChange;
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#mint();
    });
    this.#expiry.addEventListener('change', () => this.#showExpiryPicker());
    this.#form.addEventListener('reset', () => queueMicrotask(() => this.#showExpiryPicker()));
    this.#copy.addEventListener('click', () => void this.#copySecret());
    this.#secret.addEventListener('focus', () => this.#secret.select());
    // A key may be revoked elsewhere (by value, by GitHub secret scanning): the list and the
    // activity show it once refreshed.
    this.#refresh.addEventListener('click', () => {
      this.#onChange();
      void this.refresh(true);
    });
    this.#revokeAll.addEventListener('click', () => void this.#revokeAllKeys());
    this.#done.addEventListener('click', () => {
      this.#hideSecret();
      focus(this.#heading);
    });
  }

  /** Shows the signed-in account's keys. */
  async start(api: Api): Promise<void> {
    this.#api = api;
    await this.refresh();
  }

  /** Forgets everything shown (on sign-out or an expired session), the secret first. */
  stop(): void {
    this.#api = null;
    this.#hideSecret();
    this.#form.reset();
    this.#body.replaceChildren();
    this.#table.hidden = true;
    this.#empty.hidden = true;
    this.#revokeAll.hidden = true;
    for (const dialog of [this.#revokeDialog, this.#rollDialog, this.#revokeAllDialog]) dialog.close();
  }

  async refresh(announce = false): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    this.#refresh.disabled = true;
    this.#table.setAttribute('aria-busy', 'true');
    try {
      const keys = await api.listKeys();
      const rolled = await rolledKeyIds(api, keys);
      if (this.#api !== api) return;
      this.#render(keys, rolled);
      if (announce) this.#announcer.status(`${keys.length} ${keys.length === 1 ? 'key' : 'keys'}.`);
    } catch (error) {
      reportError(this.#announcer, error);
    } finally {
      this.#refresh.disabled = false;
      this.#table.removeAttribute('aria-busy');
    }
  }

  #render(keys: readonly KeyInfo[], rolled: ReadonlySet<string>): void {
    this.#empty.hidden = keys.length > 0;
    this.#table.hidden = keys.length === 0;
    this.#revokeAll.hidden = keys.length === 0;
    this.#shownCount = keys.length;
    this.#body.replaceChildren(
      ...keys.map((key) => {
        // A key is rolled once: the one that replaced it is the one to roll next.
        const roll = rolled.has(key.id)
          ? h('span', { class: 'rolled' }, 'Rolled')
          : h('button', { type: 'button', class: 'secondary compact', 'aria-label': `Roll key ${labelOf(key)}` }, 'Roll');
        if (roll instanceof HTMLButtonElement) roll.addEventListener('click', () => void this.#roll(key, roll));
        const revoke = h('button', { type: 'button', class: 'link-danger', 'aria-label': `Revoke key ${labelOf(key)}` }, 'Revoke');
        revoke.addEventListener('click', () => void this.#revoke(key, revoke));
        return h(
          'tr',
          { 'data-key-id': key.id },
          h('td', {}, key.name !== null && key.name !== '' ? key.name : h('span', { class: 'unnamed' }, 'unnamed')),
          h('td', {}, h('code', { class: 'prefix' }, `${key.prefix}…`)),
          h('td', {}, timeOf(key.createdAt, '')),
          h('td', {}, timeOf(key.lastUsedAt, 'Never')),
          expiryCell(key.expiresAt, Date.now()),
          h('td', { class: 'actions-cell' }, roll, revoke),
        );
      }),
    );
  }

  /** The date-time field shows only for "On a date…", and is then required, from now on. */
  #showExpiryPicker(): void {
    const custom = this.#expiry.value === 'custom';
    this.#expiryCustom.hidden = !custom;
    this.#expiryAt.required = custom;
    if (custom) this.#expiryAt.min = localDateTime(new Date(Date.now() + 60_000));
  }

  /** The `expiresAt` the form asks for: `null` for Never; `undefined` when the date-time is not a date. */
  #expiresAt(): string | null | undefined {
    const choice = this.#expiry.value;
    if (choice === '') return null;
    if (choice === 'custom') return expiresAtOfLocal(this.#expiryAt.value) ?? undefined;
    return expiresAtIn(Number(choice), Date.now());
  }

  async #mint(): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    const name = this.#nameInput.value.trim();
    const expiresAt = this.#expiresAt();
    if (expiresAt === undefined) {
      this.#announcer.alert('Choose the date and time the key expires.');
      focus(this.#expiryAt);
      return;
    }
    this.#mintButton.disabled = true;
    try {
      const minted = await api.mintKey({ name, expiresAt });
      if (this.#api !== api) return;
      this.#form.reset();
      const expiry = minted.expiresAt === null ? '' : ` ${expiryText(minted.expiresAt, Date.now())}.`;
      await this.#showSecret(minted, `Key ${labelOf(minted)} minted.${expiry}`);
    } catch (error) {
      reportError(this.#announcer, error);
    } finally {
      this.#mintButton.disabled = false;
    }
  }

  /** Shows a new key's secret, once, with what happened (`said`); the list and activity then refresh. */
  async #showSecret(key: MintedKey, said: string): Promise<void> {
    this.#secretKeyId = key.id;
    this.#secretName.textContent = labelOf(key);
    this.#secret.value = key.apiKey;
    this.#secretPanel.hidden = false;
    this.#announcer.status(`${said} Copy it now: it cannot be shown again.`);
    focus(this.#secret);
    this.#onChange();
    await this.refresh();
  }

  async #copySecret(): Promise<void> {
    const secret = this.#secret.value;
    try {
      await navigator.clipboard.writeText(secret);
      this.#announcer.status('Key copied to the clipboard.');
    } catch {
      // No clipboard access (permissions, or not a secure context): select it for Ctrl+C.
      focus(this.#secret);
      this.#announcer.alert('Could not copy automatically. The key is selected: press Ctrl+C (or ⌘C) to copy it.');
    }
  }

  #hideSecret(): void {
    this.#secret.value = '';
    this.#secretName.textContent = '';
    this.#secretKeyId = null;
    this.#secretPanel.hidden = true;
  }

  async #revoke(key: KeyInfo, button: HTMLButtonElement): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    if (!(await this.#revokeDialog.ask(labelOf(key)))) {
      focus(button);
      return;
    }
    button.disabled = true;
    try {
      await api.revokeKey(key.id);
      if (this.#secretKeyId === key.id) this.#hideSecret();
      this.#announcer.status(`Key ${labelOf(key)} revoked. Requests made with it now get 401.`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        this.#announcer.status(`Key ${labelOf(key)} was already revoked.`);
      } else {
        button.disabled = false;
        reportError(this.#announcer, error);
        return;
      }
    }
    this.#onChange();
    await this.refresh();
    if (this.#api === api) focus(this.#heading);
  }

  /** Rolls `key` after asking how long the old one keeps working; the new secret is shown once. */
  async #roll(key: KeyInfo, button: HTMLButtonElement): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    this.#rollGrace.value = '86400';
    if (!(await this.#rollDialog.ask(labelOf(key)))) {
      focus(button);
      return;
    }
    const grace = Number(this.#rollGrace.value);
    button.disabled = true;
    try {
      const rolled = await api.rollKey(key.id, grace);
      if (this.#api !== api) return;
      const old = grace === 0 ? 'The old key stops working now.' : `The old key keeps working for ${durationOf(grace)}.`;
      await this.#showSecret(rolled, `Key ${labelOf(rolled)} rolled: a new key replaces ${key.prefix}…. ${old}`);
    } catch (error) {
      button.disabled = false;
      reportError(this.#announcer, error);
    }
  }

  /** Revokes every key of the account, once confirmed. */
  async #revokeAllKeys(): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    if (!(await this.#revokeAllDialog.ask(plural(this.#shownCount, 'key')))) {
      focus(this.#revokeAll);
      return;
    }
    this.#revokeAll.disabled = true;
    try {
      const revoked = await api.revokeAllKeys();
      this.#hideSecret();
      this.#announcer.status(`${plural(revoked, 'key')} revoked. Requests made with them now get 401.`);
    } catch (error) {
      reportError(this.#announcer, error);
      return;
    } finally {
      this.#revokeAll.disabled = false;
    }
    this.#onChange();
    await this.refresh();
    if (this.#api === api) focus(this.#heading);
  }
}
