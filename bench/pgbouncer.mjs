/**
 * Debian's PgBouncer started as this process's own foreground child, for the pooler tests
 * (examples/express-server/src/transaction-pooler.test.ts) and bench/pooler.bench.mjs. Types in
 * pgbouncer.d.mts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** PgBouncer's binary: Debian installs it in /usr/sbin, which may not be on PATH. */
function pgbouncerBinary() {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/bin'];
  for (const dir of dirs) if (dir !== '' && existsSync(join(dir, 'pgbouncer'))) return join(dir, 'pgbouncer');
  throw new Error('pgbouncer not found on PATH or in /usr/sbin: install it (apt-get install -y pgbouncer; .ci/run does)');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts PgBouncer in the foreground, as this process's child, on a free loopback port, in
 * `mode` pooling, trusting every user as the tests' PostgreSQL does. As root it drops to the
 * `postgres` user (PgBouncer refuses to run as root). Resolves once it accepts connections.
 */
export async function startPgBouncer(mode) {
  const binary = pgbouncerBinary();
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  const users = join(dir, 'users.txt');
  writeFileSync(users, '"postgres" ""\n', { mode: 0o644 });
  writeFileSync(
    ini,
    [
      '[databases]',
      '* = host=127.0.0.1 port=5432',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      `pool_mode = ${mode}`,
      'max_client_conn = 500',
      'default_pool_size = 20',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const args = process.getuid?.() === 0 ? ['-u', 'postgres', ini] : [ini];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk) => log.push(chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk) => log.push(chunk));
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(killer);
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!log.join('').includes(`listening on 127.0.0.1:${port}`)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`pgbouncer did not start: ${log.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    port,
    log,
    through(url) {
      const pooled = new URL(url);
      pooled.port = String(port);
      return pooled.toString();
    },
    stop,
  };
}
