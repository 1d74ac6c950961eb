// The dashboard's browser tests drive Debian's Chromium at /usr/bin/chromium (playwright cannot
// download a browser here). The first step of `pnpm test`: when it is missing and we run as root
// on Debian, install it quietly (`apt-get update && apt-get install -y chromium`); otherwise say
// what to install and fail, before anything else runs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const isDebian = existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get');
if (!isRoot || !isDebian) {
  console.error(
    `ensure-chromium: the dashboard's browser tests need Chromium at ${CHROMIUM}.\n` +
      '  On Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y chromium\n' +
      '  Elsewhere: install Chromium and link its binary to /usr/bin/chromium.',
  );
  process.exit(1);
}

console.log("ensure-chromium: installing Debian's chromium for the browser tests (apt-get)…");
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', 'chromium'],
]) {
  const run = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.status !== 0 || (args[0] === 'install' && !existsSync(CHROMIUM))) {
    console.error(`ensure-chromium: apt-get ${args.join(' ')} failed (${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`);
    process.exit(1);
  }
}
console.log(`ensure-chromium: ${CHROMIUM} installed`);
