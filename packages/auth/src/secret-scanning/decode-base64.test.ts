import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidSignatureError } from '../errors/index.js';
import { LocalSecretScanningKeys } from '../testing/local-secret-scanning-keys.js';
import { createGitHubSecretScanning } from './create-github-secret-scanning.js';
import { decodeBase64 } from './decode-base64.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** `text` with the lowest unused bit of its last data character set: the same bytes to a lenient decoder. */
function respelled(text: string): string {
  const at = text.replace(/=+$/, '').length - 1;
  return `${text.slice(0, at)}${ALPHABET[ALPHABET.indexOf(text[at]!) + 1]}${text.slice(at + 1)}`;
}

describe('decodeBase64: canonical padded base64 only', () => {
  it('decodes the canonical spelling', () => {
    expect(Array.from(decodeBase64('aGk=') ?? [])).toEqual([104, 105]);
    expect(Array.from(decodeBase64('aA==') ?? [])).toEqual([104]);
    expect(Array.from(decodeBase64('aGVs') ?? [])).toEqual([104, 101, 108]);
  });

  it.each(['aGl=', 'aB==', 'aP==', 'aGk', 'aGk==', 'a===', 'aG k=', 'aGk=\n'])('refuses %j', (text) => {
    expect(decodeBase64(text)).toBeUndefined();
  });
});

describe('the GitHub signature header, respelled in its unused bits', () => {
  let github: LocalSecretScanningKeys;
  beforeEach(async () => {
    github = await LocalSecretScanningKeys.start();
  });
  afterEach(() => github.close());

  it('is refused with a 401, while its canonical spelling is accepted', async () => {
    const body = JSON.stringify([{ token: `hp_${'A'.repeat(43)}`, type: 'drops_api_key', url: 'https://x', source: 'content' }]);
    const bytes = new TextEncoder().encode(body);
    // A DER signature of 70 or 71 bytes ends in padding (unused bits); 72 bytes has none: sign until padded.
    let headers = github.signedHeaders(body);
    while (!headers['Github-Public-Key-Signature']!.endsWith('=')) headers = github.signedHeaders(body);
    const scanning = createGitHubSecretScanning({ keysUrl: github.keysUrl });
    await expect(scanning.verify(bytes, new Headers(headers))).resolves.toHaveLength(1);
    const signature = respelled(headers['Github-Public-Key-Signature']!);
    const error = await scanning.verify(bytes, new Headers({ ...headers, 'Github-Public-Key-Signature': signature })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidSignatureError);
  });
});
