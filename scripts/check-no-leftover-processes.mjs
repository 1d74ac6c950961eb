// Fails the test run if any process started by it outlives it: the last step of `pnpm test`.
// A leftover is any live process (zombies hold nothing and are skipped) whose working directory
// or command line lies inside this checkout, other than this script and its ancestors (the
// pnpm/npm/shell chain running `pnpm test`). A server a test forgot to kill, an orphan of a killed
// wrapper, a browser left open: each still holds a port, a data folder or memory.
// Linux only (it reads /proc); elsewhere it says so and passes.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const inside = (path) => path === root || path.startsWith(`${root}/`);

if (!existsSync('/proc/self/stat')) {
  console.log('check-no-leftover-processes: no /proc here, not checked');
  process.exit(0);
}

// `/proc/<pid>/stat` after the command name: state, ppid, … (null once the process is gone).
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

const ancestors = new Set();
for (let pid = process.pid; pid > 0 && !ancestors.has(pid); pid = stat(pid)?.ppid ?? 0) ancestors.add(pid);

function scan() {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || ancestors.has(Number(name))) continue;
    const info = stat(name);
    if (info === null || info.state === 'Z' || info.state === 'X') continue;
    let cwd = '';
    let cmdline = '';
    try {
      cwd = readlinkSync(`/proc/${name}/cwd`);
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (inside(cwd) || cmdline.includes(`${root}/`)) found.push({ pid: Number(name), cwd, cmdline });
  }
  return found;
}

// A process already on its way out (a tool's helper whose parent just exited) gets a moment to go;
// one still there after that is a leftover.
let leftovers = scan();
for (let attempt = 0; leftovers.length > 0 && attempt < 10; attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  leftovers = scan();
}

if (leftovers.length > 0) {
  console.error(`check-no-leftover-processes: ${leftovers.length} process(es) started from ${root} outlived the tests:`);
  for (const p of leftovers) console.error(`  pid ${p.pid} (cwd ${p.cwd}): ${p.cmdline.slice(0, 300)}`);
  console.error('Every test that starts a process must kill it (and its process group) in afterAll.');
  process.exit(1);
}
console.log('check-no-leftover-processes: none left');
