// Deno: `deno run --allow-net … runtimes/deno.mjs` (the Web Crypto build, `deno` condition).
import { createVerifyBench } from './verify-app.mjs';

Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening on ${port}`) }, await createVerifyBench());
