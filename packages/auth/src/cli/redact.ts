import { API_KEY_IN_TEXT } from './find-api-keys.js';

/** Anything secret-shaped in `text` replaced, so no message can print a key. */
export function redact(text: string): string {
  return text.replace(API_KEY_IN_TEXT, 'hp_[redacted]');
}
