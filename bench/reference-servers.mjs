/**
 * Reference servers (examples/express-server exactly as `pnpm start` runs it: its built
 * `dist/main.js`) as child processes for the HTTP benchmarks, on free ports, with their metrics
 * on: start, wait until up, stop; and the two calls every HTTP bench makes of them (mint a key,
 * `GET /whoami`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { SERVER_FOLDER, serverCommand } from '../examples/express-server/src/testing/server-command.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A child process that must be stopped; its stderr is kept for the error message if it dies. */
export function tracked(child, label) {
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = once(child, 'exit');
  return {
    child,
    label,
    get stderr() {
      return stderr;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function waitUntilUp(url, proc, path = '/healthz') {
  const deadline = Date.now() + 180_000; // a loaded 2-core machine starts several servers at once
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.label} exited: ${proc.stderr}`);
    try {
      const res = await fetch(url + path);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${proc.label} did not start: ${proc.stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The reference server (examples/express-server/src/main.ts) with `env`, on a free port. Ports are
 * picked before the server binds them, so a server started alongside may take one first (seen
 * once: the child exits at once); such a start is tried again, up to three times in all.
 */
export async function startReference(label, env) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startReferenceOnce(label, env);
    } catch (error) {
      if (attempt >= 3 || !/ exited: /.test(error.message)) throw error;
      process.stderr.write(`  ${label}: exited while starting, starting it again (${error.message.split('\n')[0]})\n`);
    }
  }
}

async function startReferenceOnce(label, env) {
  const port = await freePort();
  // PORT is set, so METRICS_PORT would default to 9464: a free port, so the servers can coexist.
  const metricsPort = await freePort();
  // What pnpm runs after the build step (`pnpm bench` builds): the shell `exec`s node, so `child`
  // is the server itself, the pid whose CPU time the benches read.
  const child = spawn('sh', ['-c', serverCommand()], {
    cwd: SERVER_FOLDER,
    // Its log (JSON lines on stdout) goes to /dev/null.
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: String(metricsPort), LOG_FORMAT: 'json', ...env },
  });
  const proc = tracked(child, label);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(url, proc);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return { ...proc, url, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}

/**
 * Fails unless each reference server's metrics counted at least 1 000 authenticated API keys: the
 * metrics were on and counted what was timed (a server that silently dropped them would flatter
 * its figure).
 */
export async function assertMetricsCounted(servers) {
  for (const server of servers) {
    const text = await (await fetch(server.metricsUrl)).text();
    const counted = /^drops_auth_requests_total\{credential="api_key",outcome="authenticated",reason="none"\} (\d+)/m.exec(text);
    if (counted === null || Number(counted[1]) < 1000) throw new Error(`${server.label}: metrics did not count the load`);
  }
}

export async function whoami(url, authorization) {
  const res = await fetch(`${url}/whoami`, { headers: authorization ? { authorization } : {} });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`GET ${url}/whoami: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export async function mintKey(url, idToken) {
  const res = await fetch(`${url}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`POST ${url}/keys: ${res.status} ${JSON.stringify(body)}`);
  return body.apiKey;
}

/**
 * Waits for every server to start, keeping each that did in `procs` (to be stopped) even when
 * another fails: a failed start must not leave the others running.
 */
export async function startAll(procs, starting) {
  const settled = await Promise.allSettled(starting);
  for (const s of settled) if (s.status === 'fulfilled') procs.push(s.value);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => s.value);
}
