import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './start-server.js';

// The reference server: `pnpm start` (here or at the repository root) builds it and runs `dist/main.js`.
let config;
try {
  config = loadConfig(process.env, { isTty: process.stdout.isTTY === true });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`drops server: ${error.message}\n`);
  process.exit(1);
}

const logger = createLogger({ level: config.logLevel, format: config.logFormat });
const running = await startServer(config, { logger }).catch((error: unknown) => {
  logger.fatal({ err: error }, 'could not start');
  process.exit(1);
});

const where = config.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite (${config.database.dataDir})`;
logger.info(
  // pino's own `pid` field: tests check that the process they signal is the one listening.
  { url: running.url, metrics: running.metricsUrl, database: where, identity: config.identity.kind },
  config.identity.kind === 'dev'
    ? `listening on ${running.url}; development identity provider: POST ${running.url}/dev/token`
    : `listening on ${running.url}`,
);

let signalled = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, 'shutting down: draining requests');
    running.close().then(
      () => {
        logger.info('shut down cleanly');
        logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        logger.flush();
        process.exit(1);
      },
    );
  });
}
