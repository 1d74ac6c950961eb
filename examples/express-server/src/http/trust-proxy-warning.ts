import type { Logger } from 'pino';
import { ENV } from '../settings.js';

/**
 * Warns once, at start, when the trusted proxies are a hop count: Express then takes the address
 * the n-th hop appended to `X-Forwarded-For` as the client's, and the hop it trusts is whoever
 * connects. A client that reaches the port directly, not through the proxy, writes that header
 * itself and picks its own address for every per-client limit. The proxy's addresses or subnets
 * trust only what comes through it.
 */
export function warnOfTrustedHopCount(trustProxy: false | number | string, logger: Logger): void {
  if (typeof trustProxy !== 'number') return;
  logger.warn(
    { trustProxy },
    `${ENV.trustProxy}=${trustProxy} is a hop count: it trusts X-Forwarded-For from whoever connects, so a client that reaches this port directly picks its own address for every per-client limit. Set ${ENV.trustProxy} to your proxy's addresses or subnets (for example 10.0.0.0/8) unless nothing but the proxy can connect`,
  );
}
