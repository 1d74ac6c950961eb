/**
 * The CPU time a process has used so far, in milliseconds with nanosecond resolution: the sum of
 * the first field of /proc/<pid>/task/<tid>/schedstat (time on a CPU) over its threads, so work a
 * runtime hands to a thread pool counts too. `undefined` where Linux does not report it (another
 * OS, schedstats off). /proc/<pid>/stat counts in 10 ms ticks, too coarse for one request.
 * A thread that exits between two readings takes its time with it: the runtimes here keep theirs.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function processCpuMs(pid) {
  let nanoseconds = 0;
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  for (const tid of tasks) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread exited while we read: its time is gone with it
    }
  }
  return Number.isFinite(nanoseconds) && nanoseconds > 0 ? nanoseconds / 1e6 : undefined;
}
