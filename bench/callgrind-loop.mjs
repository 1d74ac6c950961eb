// usage: node bench/callgrind-loop.mjs MODE [N] [WARM]: instructions per operation of bench/id-token-loop.mjs's loop under
// valgrind callgrind (every thread), collection switched on around the measured loop only. DIST=path picks another build.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const [mode, n = '2000', warm = '1000'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'cg-'));
const child = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    '--instr-atstart=no',
    `--callgrind-out-file=${dir}/cg.out`,
    '--dump-instr=no',
    process.execPath,
    '--max-semi-space-size=16',
    '--expose-gc',
    process.env.SCRIPT ?? new URL('./id-token-loop.mjs', import.meta.url).pathname,
    mode,
    n,
    warm,
  ],
  { env: { ...process.env, CG: '1' }, stdio: ['pipe', 'pipe', 'pipe'], cwd: new URL('..', import.meta.url).pathname },
);
let out = '',
  err = '';
child.stderr.on('data', (d) => (err += d));
const waitFor = (word) =>
  new Promise((r, j) => {
    const on = (d) => {
      out += d;
      if (out.includes(word)) {
        child.stdout.off('data', on);
        r();
      }
    };
    child.stdout.on('data', on);
    child.once('exit', () => j(new Error(err.slice(-2000))));
  });
const ctl = (...a) => execFileSync('callgrind_control', [...a, String(child.pid)], { stdio: 'ignore' });
await waitFor('ready');
ctl('-i', 'on');
child.stdin.write('\n');
await waitFor('done');
ctl('-i', 'off');
ctl('-d');
child.stdin.write('\n');
await new Promise((res) => child.once('exit', res));
let total = 0;
for (const f of readdirSync(dir).filter((f) => f.startsWith('cg.out'))) {
  const m = readFileSync(`${dir}/${f}`, 'utf8').match(/^totals: (\d+)/m);
  if (m) total = Math.max(total, 0) + Number(m[1]);
}
console.log(`${mode}: ${(total / Number(n)).toFixed(0)} instr/op (n=${n}, warm=${warm}) ${dir}`);
if (!process.env.KEEP) rmSync(dir, { recursive: true });
