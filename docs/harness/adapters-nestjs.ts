// Runs the NestJS section of docs/adapters.md: its AppModule, served on loopback by Nest on
// platform-express, answers as the section says (the guards, @Principal() and the /keys routes).
import 'reflect-metadata';
import * as check from 'node:assert/strict';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { adapterContext, afterExample, bearer, expectTheKeysRoutes, overHttp, urlOf } from '../harness/support.js';

// What the section starts from: `authenticator` and `keys` (a local identity provider stands in for Firebase).
const context = await adapterContext();
const { authenticator, keys } = context;

// <<example>>

const app = await NestFactory.create(AppModule, { logger: false });
afterExample(() => app.close());
await app.init();
const send = overHttp(await urlOf((app.getHttpServer() as Server).listen(0, '127.0.0.1')));
const idToken = context.idp.mintIdToken({ sub: 'acct-nest' });

check.equal((await send('/drops')).status, 401, 'GET /drops with no credential');
check.deepEqual(await (await send('/account', { headers: bearer(idToken) })).json(), { accountId: 'acct-nest' });
await expectTheKeysRoutes(send, idToken);
