import { keyStoreChannel } from './channels.js';
import type { KeyStoreOperation } from './diagnostics-messages.js';

/** Whether anyone listens on `drops-auth:key-store`: check before timing anything. */
export function observingKeyStore(): boolean {
  return keyStoreChannel.hasSubscribers;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs one key store call and publishes its duration, outcome and whether it answered at once
 * (`fromMemory`: no promise) on `drops-auth:key-store`. A store that answers synchronously (from
 * memory) is answered synchronously still; a throw or a rejection is published and passed on
 * unchanged.
 */
export function observeKeyStoreCall<T>(operation: KeyStoreOperation, call: () => T): T {
  const startedAt = performance.now();
  const publish = (error: unknown, fromMemory = false): void =>
    keyStoreChannel.publish({ operation, durationMs: performance.now() - startedAt, error, fromMemory });
  let result: T;
  try {
    result = call();
  } catch (error) {
    publish(error ?? new Error('key store threw nothing'), true);
    throw error;
  }
  if (!isThenable(result)) {
    publish(null, true);
    return result;
  }
  return Promise.resolve(result).then(
    (value) => {
      publish(null);
      return value;
    },
    (error: unknown) => {
      publish(error ?? new Error('key store rejected with nothing'));
      throw error;
    },
  ) as T;
}
