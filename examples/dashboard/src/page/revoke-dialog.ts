/**
 * Asks for confirmation in the page's modal `<dialog>` (keyboard: Tab between Cancel and Revoke,
 * Escape cancels). Resolves `true` only when "Revoke key" was chosen.
 */
export function confirmRevoke(dialog: HTMLDialogElement, nameSlot: HTMLElement, keyLabel: string): Promise<boolean> {
  nameSlot.textContent = keyLabel;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'revoke'), { once: true });
  });
}
