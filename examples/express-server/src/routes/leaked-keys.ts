import { createGitHubSecretScanning } from '@drops/auth';
import type { Router } from 'express';
import type { RouteContext } from '../app-deps.js';

/**
 * The routes that kill a leaked key, from `@drops/auth-express`, with no credential:
 * `POST /credentials/revoke` (`{"credentials": ["hp_…"]}`: `202`, the same bytes whether or not
 * any key existed; `REVOKE_BY_VALUE_LIMIT` per client address per `REVOKE_BY_VALUE_WINDOW_SECONDS`)
 * and `POST /secret-scanning/github` (GitHub's signed alerts, checked against the key list at
 * `GITHUB_SECRET_SCANNING_KEYS_URL`, fetched on the first alert; `SECRET_SCANNING_LIMIT` per client
 * address per `SECRET_SCANNING_WINDOW_SECONDS`, its signature headers checked before its body is
 * read). IPv6 clients count per `IPV6_PREFIX_LENGTH` network. Every revocation is a key event.
 */
export function leakedKeysRoutes(ctx: RouteContext): Router {
  const { config, clock } = ctx;
  return ctx.auth.leakedKeysRouter(
    ctx.leakedKeys ?? {
      githubSecretScanning: createGitHubSecretScanning({ keysUrl: config.secretScanningKeysUrl, clock }),
      revokeRateLimit: { max: config.revokeByValueLimit, windowMs: config.revokeByValueWindowMs },
      secretScanningRateLimit: { max: config.secretScanningLimit, windowMs: config.secretScanningWindowMs },
      rateLimitStore: ctx.rateLimitStore,
      ipv6PrefixLength: config.ipv6PrefixLength,
      clock,
    },
  );
}
