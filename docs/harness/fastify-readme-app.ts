// Runs the complete app of packages/fastify/README.md as its reader would: on a free port (PORT=0),
// signed in with the ID token it prints, then the README's curl commands and the app's routes.
import * as check from 'node:assert/strict';
import { bearer, expectAnonymousDeploy, expectTheKeysRoutes, readmeAppSetUp, signInAsTheReadmeShows } from '../harness/support.js';

const { console, printed } = readmeAppSetUp();

// <<example>>

const { send, idToken, apiKey } = await signInAsTheReadmeShows(server, idp, printed);
check.deepEqual(await (await send('/drops', { headers: bearer(apiKey) })).json(), { owner: 'demo-account', drops: [] });
check.deepEqual(await (await send('/account', { headers: bearer(idToken) })).json(), { accountId: 'demo-account' });
check.equal((await send('/account', { headers: bearer(apiKey) })).status, 401);
await expectAnonymousDeploy(send);
await expectTheKeysRoutes(send, idp.mintIdToken({ sub: 'acct-keys' }));
