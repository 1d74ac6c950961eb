import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of the built page (`index.html`, `main.js`, its chunks and `styles.css`), for
 * a static file server mounted at `/dashboard/`. The page calls the API on its own origin.
 *
 * @throws Error when the page has not been built (`pnpm --filter @drops/example-dashboard build`).
 * @example
 * ```ts
 * app.use('/dashboard', express.static(dashboardStaticDir()));
 * ```
 */
export function dashboardStaticDir(): string {
  // The same from dist/index.js and from src/static-dir.ts.
  const dir = fileURLToPath(new URL('../dist/public/', import.meta.url));
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`the dashboard is not built (no ${join(dir, 'index.html')}): run pnpm --filter @drops/example-dashboard build`);
  }
  return dir;
}
