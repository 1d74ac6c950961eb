import { h } from './dom.js';

/** What a {@link ConfirmDialog} asks. */
export interface ConfirmDialogSpec {
  /** Its ids: `<id>-dialog`, and `<id>-title` and `<id>-description` that name and describe it. */
  readonly id: string;
  /** The question before its subject: `Revoke key` asks "Revoke key <subject>?". */
  readonly question: string;
  /** What confirming does, read out with the question. */
  readonly description: string;
  /** Controls between the description and the buttons (the roll's grace picker). */
  readonly fields?: readonly HTMLElement[];
  /** The confirming button's label. */
  readonly confirm: string;
  /** Whether confirming destroys something (a red button). */
  readonly danger: boolean;
}

/**
 * One of the page's modal confirmation dialogs, added to the page once: a `<form method="dialog">`
 * inside (keyboard: Tab between its controls, Escape cancels), Cancel focused first.
 */
export class ConfirmDialog {
  readonly #dialog: HTMLDialogElement;
  readonly #subject = h('span');

  constructor(spec: ConfirmDialogSpec) {
    const { id } = spec;
    this.#dialog = h(
      'dialog',
      { id: `${id}-dialog`, 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-description` },
      h(
        'form',
        { method: 'dialog' },
        h('h2', { id: `${id}-title` }, `${spec.question} `, this.#subject, '?'),
        h('p', { id: `${id}-description` }, spec.description),
        ...(spec.fields ?? []),
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'submit', value: 'cancel', class: 'secondary', autofocus: '' }, 'Cancel'),
          h('button', { type: 'submit', value: 'confirm', ...(spec.danger ? { class: 'danger' } : {}) }, spec.confirm),
        ),
      ),
    );
    document.body.append(this.#dialog);
  }

  /** Opens the dialog about `subject`; resolves `true` when confirmed, `false` on Cancel or Escape. */
  ask(subject: string): Promise<boolean> {
    this.#subject.textContent = subject;
    this.#dialog.returnValue = '';
    this.#dialog.showModal();
    return new Promise((resolve) => {
      this.#dialog.addEventListener('close', () => resolve(this.#dialog.returnValue === 'confirm'), { once: true });
    });
  }

  /** Closes the dialog if it is open, as a cancel. */
  close(): void {
    if (this.#dialog.open) this.#dialog.close();
  }
}
