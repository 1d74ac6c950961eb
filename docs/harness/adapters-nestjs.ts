// Runs the NestJS section of docs/adapters.md as written, on platform-express: the app listens
// (PORT=0 here), and its first run (a development ID token, a key, the guards, @Principal() and
// the /keys routes) works over HTTP.
import 'reflect-metadata';
import type { Server } from 'node:http';
import { afterExample, expectTheFirstRun, overHttp, setEnv, urlOf } from '../harness/support.js';

setEnv('PORT', '0');

// <<example>>

const nest = await app;
afterExample(() => nest.close());
await expectTheFirstRun(overHttp(await urlOf(nest.getHttpServer() as Server)), { deploy: false });
