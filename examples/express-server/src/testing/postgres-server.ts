import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Debian/Ubuntu cluster the tests' PostgreSQL runs as: `<version> main`. */
function cluster(): [string, string] {
  const versions = readdirSync('/etc/postgresql');
  if (versions.length !== 1) throw new Error(`expected one PostgreSQL version in /etc/postgresql, found ${versions.join(', ')}`);
  return [versions[0]!, 'main'];
}

async function ctl(action: 'stop' | 'start'): Promise<void> {
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', ...cluster(), action]);
}

/** Stops the real PostgreSQL server (fast mode: sessions are terminated). */
export function stopPostgres(): Promise<void> {
  return ctl('stop');
}

/** Starts the real PostgreSQL server; succeeds too when it is already running. */
export async function startPostgres(): Promise<void> {
  try {
    await ctl('start');
  } catch (error) {
    const { stdout } = await run('pg_lsclusters', ['--no-header']).catch(() => ({ stdout: '' }));
    if (!/\bonline\b/.test(stdout)) throw error;
  }
}
