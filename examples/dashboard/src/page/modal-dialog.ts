/**
 * Opens one of the page's modal `<dialog>`s (a `<form method="dialog">` inside; keyboard: Tab
 * between its controls, Escape cancels) and resolves the `value` of the button that closed it:
 * `''` when cancelled with Escape.
 */
export function askInDialog(dialog: HTMLDialogElement): Promise<string> {
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue), { once: true });
  });
}
