// Runs the complete app of packages/koa/README.md as its reader would: served on a free port
// (PORT=0), signed in with the ID token it prints, then the README's curl commands and its routes.
import * as check from 'node:assert/strict';
import { afterExample, consoleCapture, expectTheKeysRoutes, overHttp, setEnv, urlOf } from '../harness/support.js';

setEnv('PORT', '0');
/** What the app prints: read by the checks, kept out of the test output. */
const { console, lines: printed } = consoleCapture();

// <<example>>

afterExample(() => idp.close());
const send = overHttp(await urlOf(server));
const idToken = /^ey[\w-]+\.[\w-]+\.[\w-]+$/m.exec(printed.join('\n'))?.[0];
check.ok(idToken, 'the app prints an ID token for the demo');
const bearer = (credential: string): RequestInit => ({ headers: { authorization: `Bearer ${credential}` } });

// The curl commands below the example (`curl -d` sends a form content type).
const minted = await send('/keys', {
  method: 'POST',
  headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: '{"name":"ci"}',
});
check.equal(minted.status, 201);
const { apiKey, name } = (await minted.json()) as { apiKey: string; name: string };
check.equal(name, 'ci');
check.deepEqual(await (await send('/drops', bearer(apiKey))).json(), { owner: 'demo-account', drops: [] });

check.deepEqual(await (await send('/account', bearer(idToken))).json(), { accountId: 'demo-account' });
check.equal((await send('/account', bearer(apiKey))).status, 401);
const anonymous = await send('/deploy', { method: 'POST' });
check.deepEqual([anonymous.status, await anonymous.json()], [201, { owner: null }]);
check.equal((await send('/deploy', { method: 'POST', ...bearer(`hp_${'A'.repeat(43)}`) })).status, 401);
await expectTheKeysRoutes(send, idp.mintIdToken({ sub: 'acct-keys' }));
