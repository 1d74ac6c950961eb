/**
 * The CPU time a process has used so far, in milliseconds with nanosecond resolution: the sum of
 * the first field of /proc/<pid>/task/<tid>/schedstat (time on a CPU) over its threads, so work a
 * runtime hands to a thread pool counts too. `undefined` where Linux does not report it (another
 * OS, schedstats off). /proc/<pid>/stat counts in 10 ms ticks, too coarse for one request.
 * A thread that exits between two readings takes its time with it: the runtimes here keep theirs.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Sums `read(text of one /proc/<pid>/task/<tid>/<file>)` over the threads; `undefined` without /proc. */
function sumOverThreads(pid, file, read) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const sums = [];
  for (const tid of tasks) {
    let values;
    try {
      values = read(readFileSync(`/proc/${pid}/task/${tid}/${file}`, 'utf8'));
    } catch {
      // the thread exited while we read: its time is gone with it
      continue;
    }
    values.forEach((value, i) => {
      sums[i] = (sums[i] ?? 0) + value;
    });
  }
  return sums;
}

export function processCpuMs(pid) {
  const [nanoseconds] = sumOverThreads(pid, 'schedstat', (text) => [Number(text.split(' ')[0])]) ?? [];
  return Number.isFinite(nanoseconds) && nanoseconds > 0 ? nanoseconds / 1e6 : undefined;
}

/**
 * The user and system CPU time of a process so far, in milliseconds, summed over its threads
 * (fields 14 and 15 of /proc/<pid>/task/<tid>/stat). Counted in 10 ms ticks: over thousands of
 * requests that is a fraction of a microsecond each. `undefined` where Linux does not report it.
 */
export function processUserSystemMs(pid) {
  // After the command name, in parentheses and possibly with spaces: the state is the first field.
  const ticks = sumOverThreads(pid, 'stat', (text) => text.split(') ')[1].split(' ').slice(11, 13).map(Number));
  return ticks?.length === 2 ? { user: ticks[0] * 10, system: ticks[1] * 10 } : undefined;
}
