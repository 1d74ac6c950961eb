// Bun: `bun runtimes/bun.mjs` (the Web Crypto build of @drops/auth, `bun` condition).
import { createVerifyBench } from './verify-app.mjs';

const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: await createVerifyBench() });
console.log(`listening on ${server.port}`);
