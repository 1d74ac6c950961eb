/** The folder the server's scripts run in (the package's). */
export const SERVER_FOLDER: URL;
/** The server's own command in `pnpm start`, after its build step: a shell command run in {@link SERVER_FOLDER}. */
export function serverCommand(): string;
