/** Runs a task when a slot is free. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * At most `slots` tasks at a time, the rest queued in order: for CPU-bound work (a framework's
 * build that uses every core) that would only thrash if every scratch project started it at once.
 *
 * @example
 * ```ts
 * const oneBuild = limitConcurrency(1);
 * await Promise.all(projects.map((project) => oneBuild(() => buildWithCli(project, scenario, env))));
 * ```
 */
export function limitConcurrency(slots: number): Limiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
