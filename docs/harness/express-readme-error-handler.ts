// Runs the `onError` example of packages/express/README.md: a refused request is the uniform 401,
// and the reason it was refused reaches the log, never the client.
import * as check from 'node:assert/strict';
import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import express from 'express';
import { adapterContext, consoleCapture, overHttp, urlOf } from '../harness/support.js';

// The README's authenticator and key manager.
const { authenticator, keys } = await adapterContext();
const { console, lines: logged } = consoleCapture();

// <<example>>

// The README's app, on that `auth`.
const app = express();
app.get('/whoami', auth.requireAuth(), (_req, res) => {
  res.json({});
});
app.use(auth.errorHandler());

const send = overHttp(await urlOf(app.listen(0, '127.0.0.1')));
// Both refusals are the same bytes; only the log tells them apart.
check.deepEqual(await snapshotOf(await send('/whoami')), UNIFORM_401);
check.deepEqual(await snapshotOf(await send('/whoami', { headers: { authorization: `Bearer hp_${'A'.repeat(43)}` } })), UNIFORM_401);
check.deepEqual(
  logged.map((line) => JSON.parse(line) as unknown),
  [
    { method: 'GET', path: '/whoami', code: 'ERR_UNAUTHENTICATED', reason: 'missing' },
    { method: 'GET', path: '/whoami', code: 'ERR_UNAUTHENTICATED', reason: 'unknown_key' },
  ],
);
