/**
 * The in-process API key check, for counting instructions under callgrind (bench/METHOD.md, issue 40):
 *   node bench/core-api-key.callgrind.mjs N authenticate   N × `await authenticator.authenticate(header)`
 *   node bench/core-api-key.callgrind.mjs N check          N × the adapter kit's check, awaited only when a promise
 * A run with N = 0 does the same set-up and warm-up: the difference of two runs over N is one check.
 */
import { createAuthenticator } from '@drops/auth';
import { createAuthCheck } from '@drops/auth/adapter';
import { memoryStoreWithKeys } from './memory-store-keys.mjs';

const [n = '0', mode = 'authenticate'] = process.argv.slice(2);
const { store, secrets } = await memoryStoreWithKeys(1024);
const headers = secrets.map((secret) => `Bearer ${secret}`);
const authenticator = createAuthenticator({ keyStore: store });
const check = createAuthCheck(authenticator, {});
const once =
  mode === 'check'
    ? async (i) => {
        const answer = check(headers[i & 1023]);
        return answer instanceof Promise ? await answer : answer;
      }
    : (i) => authenticator.authenticate(headers[i & 1023]);
for (let i = 0; i < 20_000; i++) await once(i);
let sink = 0;
const count = Number(n);
if (mode === 'check') {
  for (let i = 0; i < count; i++) {
    let answer = check(headers[i & 1023]);
    if (answer instanceof Promise) answer = await answer;
    if (answer.accountId !== undefined) sink++;
  }
} else {
  for (let i = 0; i < count; i++) if ((await authenticator.authenticate(headers[i & 1023])).accountId !== undefined) sink++;
}
if (sink !== count) throw new Error('a key did not authenticate');
