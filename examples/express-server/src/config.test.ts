import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the defaults of DESIGN.md: 127.0.0.1:8787, PGlite in .data, the dev identity provider, 10 MiB bodies', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      identity: { kind: 'dev' },
      database: { kind: 'pglite', dataDir: '.data' },
      maxBodyBytes: 10 * 1024 * 1024,
      production: false,
      logFormat: 'json',
    });
  });

  it('reads PostgreSQL, Firebase and a generic identity provider', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/drops', DEV_IDENTITY_PROVIDER: 'on' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/drops',
      listenUrl: null,
      migrate: true,
    });
    const pooled = {
      DATABASE_URL: 'postgres://u@pooler:6543/drops',
      DATABASE_LISTEN_URL: 'postgres://u@db:5432/drops',
      DEV_IDENTITY_PROVIDER: 'on',
    };
    expect(loadConfig(pooled).database).toMatchObject({ url: 'postgres://u@pooler:6543/drops', listenUrl: 'postgres://u@db:5432/drops' });
    expect(() => loadConfig({ DATA_DIR: ':memory:', DATABASE_LISTEN_URL: 'postgres://u@db:5432/drops' })).toThrow(
      /DATABASE_LISTEN_URL needs DATABASE_URL/,
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@db:5432/drops', DEV_IDENTITY_PROVIDER: 'on', DATABASE_MIGRATE: 'off' }).database,
    ).toMatchObject({ migrate: false });
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db:5432/drops', DATABASE_MIGRATE: 'no' })).toThrow(/DATABASE_MIGRATE/);
    expect(loadConfig({ DATA_DIR: ':memory:' }).database).toEqual({ kind: 'pglite', dataDir: ':memory:' });
    expect(loadConfig({ FIREBASE_PROJECT_ID: 'my-project', NODE_ENV: 'production' }).identity).toEqual({
      kind: 'firebase',
      projectId: 'my-project',
    });
    expect(
      loadConfig({
        AUTH_ISSUER: 'https://auth.example.com',
        AUTH_AUDIENCE: 'dashboard, cli',
        AUTH_JWKS_URL: 'https://auth.example.com/jwks.json',
      }).identity,
    ).toEqual({
      kind: 'oidc',
      issuer: 'https://auth.example.com',
      audience: ['dashboard', 'cli'],
      jwksUrl: 'https://auth.example.com/jwks.json',
    });
  });

  it('reads WEBHOOK_RETRY_SECONDS, and allows loopback webhooks only where the dev identity provider may run', () => {
    expect(loadConfig({}).webhookRetrySeconds).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(loadConfig({ WEBHOOK_RETRY_SECONDS: '0,1,60' }).webhookRetrySeconds).toEqual([0, 1, 60]);
    for (const bad of ['5, 300', '-1', 'soon', '1,,2', '604801', Array(21).fill('1').join(',')]) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SECONDS: bad }), bad).toThrow(/WEBHOOK_RETRY_SECONDS/);
    }
    expect(loadConfig({}).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/drops', DEV_IDENTITY_PROVIDER: 'on' }).webhookAllowLoopback).toBe(true);
    const oidc = { AUTH_ISSUER: 'https://issuer.example', AUTH_AUDIENCE: 'drops', AUTH_JWKS_URL: 'https://issuer.example/jwks' };
    expect(loadConfig({ ...oidc, DATABASE_URL: 'postgres://u@db:5432/drops' }).webhookAllowLoopback).toBe(false);
    expect(loadConfig({ ...oidc, NODE_ENV: 'production' }).webhookAllowLoopback).toBe(false);
    expect(loadConfig({ FIREBASE_PROJECT_ID: 'my-project', NODE_ENV: 'staging' }).webhookAllowLoopback).toBe(false);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', FIREBASE_PROJECT_ID: ' ' }).port).toBe(8787);
  });

  it.each([
    [{ NODE_ENV: 'production' }, /NODE_ENV="production" needs an identity provider/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ AUTH_ISSUER: 'https://x' }, /missing AUTH_AUDIENCE, AUTH_JWKS_URL/],
    [{ FIREBASE_PROJECT_ID: 'my-project', AUTH_ISSUER: 'https://x' }, /not both/],
    [{ FIREBASE_PROJECT_ID: 'My Project' }, /FIREBASE_PROJECT_ID/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ DATABASE_URL: 'postgres://x/db', DATA_DIR: '/tmp/x' }, /not both/],
    [{ MAX_BODY_BYTES: '0' }, /MAX_BODY_BYTES/],
    [{ MAX_BODY_BYTES: '2000', MAX_DROP_BYTES: '1000' }, /MAX_DROP_BYTES/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('refuses %j with a clear error', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  // The development identity provider mints a token for any name: it must never run by accident.
  it.each([undefined, '', 'development', 'test'])(
    'runs the development identity provider with no provider configured and NODE_ENV=%j',
    (nodeEnv) => {
      expect(loadConfig({ NODE_ENV: nodeEnv }).identity).toEqual({ kind: 'dev' });
    },
  );

  it.each(['production', 'PRODUCTION', 'prod', 'production ', ' development', 'Development', 'staging', ' ', 'dev'])(
    'refuses to start with no provider configured and NODE_ENV=%j, naming the variables to set',
    (nodeEnv) => {
      expect(() => loadConfig({ NODE_ENV: nodeEnv })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: nodeEnv })).toThrow(
        `NODE_ENV=${JSON.stringify(nodeEnv)} needs an identity provider: set FIREBASE_PROJECT_ID, or AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL`,
      );
    },
  );

  it('runs a configured provider whatever NODE_ENV says', () => {
    expect(loadConfig({ NODE_ENV: 'staging', FIREBASE_PROJECT_ID: 'my-project' }).identity.kind).toBe('firebase');
  });

  it('reads DROPS_ORIGIN as an origin: https, or http on a loopback host', () => {
    expect(loadConfig({}).dropsOrigin).toBeNull();
    expect(loadConfig({ DROPS_ORIGIN: 'https://Drops-Content.example.net/' }).dropsOrigin).toEqual({
      origin: 'https://drops-content.example.net',
      host: 'drops-content.example.net',
    });
    expect(loadConfig({ DROPS_ORIGIN: 'http://127.0.0.2:8788' }).dropsOrigin).toEqual({
      origin: 'http://127.0.0.2:8788',
      host: '127.0.0.2:8788',
    });
    expect(loadConfig({ DROPS_ORIGIN: 'http://drops.localhost:8788' }).dropsOrigin?.host).toBe('drops.localhost:8788');
  });

  it.each([
    ['http://drops.example.net', /https: \(plain http: only on a loopback host/],
    ['ftp://drops.example.net', /https:/],
    ['https://drops.example.net/content', /origin only/],
    ['https://drops.example.net/?a=1', /origin only/],
    ['https://user:pw@drops.example.net', /origin only/],
    ['drops.example.net', /must be an origin/],
  ])('refuses DROPS_ORIGIN=%j', (value, message) => {
    expect(() => loadConfig({ DROPS_ORIGIN: value })).toThrow(message);
  });

  it('refuses DROPS_ORIGIN on the same host as PUBLIC_URL', () => {
    expect(() => loadConfig({ DROPS_ORIGIN: 'https://api.example.net', PUBLIC_URL: 'https://API.example.net' })).toThrow(
      /another host than PUBLIC_URL/,
    );
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/db', DATA_DIR: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  it('serves metrics on loopback port 9464 by default, on a free port when PORT is 0, or not at all with METRICS_PORT=off', () => {
    expect(loadConfig({}).metrics).toEqual({ port: 9464, host: '127.0.0.1', token: null });
    expect(loadConfig({ PORT: '0' }).metrics.port).toBe(0);
    expect(loadConfig({ PORT: '0', METRICS_PORT: '9100' }).metrics.port).toBe(9100);
    expect(loadConfig({ METRICS_PORT: 'off' }).metrics.port).toBeNull();
    expect(loadConfig({ METRICS_HOST: '10.0.0.5', METRICS_TOKEN: 'a-long-enough-token' }).metrics).toEqual({
      port: 9464,
      host: '10.0.0.5',
      token: 'a-long-enough-token',
    });
    expect(() => loadConfig({ METRICS_PORT: 'on' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(/METRICS_TOKEN/);
  });

  it("reads GitHub's secret scanning key list URL: GitHub's by default, https:, http: only on loopback", () => {
    expect(loadConfig({}).secretScanningKeysUrl).toBe('https://api.github.com/meta/public_keys/secret_scanning');
    expect(loadConfig({ GITHUB_SECRET_SCANNING_KEYS_URL: 'http://127.0.0.1:9999/keys' }).secretScanningKeysUrl).toBe(
      'http://127.0.0.1:9999/keys',
    );
    expect(
      loadConfig({ GITHUB_SECRET_SCANNING_KEYS_URL: 'https://ghe.example.com/api/v3/meta/public_keys/secret_scanning' })
        .secretScanningKeysUrl,
    ).toBe('https://ghe.example.com/api/v3/meta/public_keys/secret_scanning');
    for (const value of [
      'http://api.github.com/meta/public_keys/secret_scanning',
      'http://keys.localhost/x',
      'api.github.com',
      'file:///etc/keys.json',
    ]) {
      expect(() => loadConfig({ GITHUB_SECRET_SCANNING_KEYS_URL: value })).toThrow(
        'GITHUB_SECRET_SCANNING_KEYS_URL: must be an https: URL (plain http: only for 127.0.0.0/8, localhost or [::1], for tests)',
      );
    }
  });

  it('reads MINT_MAX_AUTH_AGE_SECONDS: unset by default, a whole number of seconds from 1 to a year', () => {
    expect(loadConfig({}).mintMaxAuthAgeSeconds).toBeNull();
    expect(loadConfig({ MINT_MAX_AUTH_AGE_SECONDS: '300' })).toMatchObject({
      mintMaxAuthAgeSeconds: 300,
      dashboard: { identity: { mode: 'dev' }, mintMaxAuthAgeSeconds: 300 },
    });
    expect(loadConfig({ MINT_MAX_AUTH_AGE_SECONDS: ' ' }).mintMaxAuthAgeSeconds).toBeNull();
    for (const [value, message] of [
      ['5m', 'MINT_MAX_AUTH_AGE_SECONDS: must be a whole number of seconds, such as 300 (unset: no limit)'],
      ['1.5', 'MINT_MAX_AUTH_AGE_SECONDS: must be a whole number of seconds'],
      ['-60', 'MINT_MAX_AUTH_AGE_SECONDS: must be a whole number of seconds'],
      ['0', 'MINT_MAX_AUTH_AGE_SECONDS: must be at least 1 second (unset it for no limit)'],
      ['31536001', 'MINT_MAX_AUTH_AGE_SECONDS: must be at most 31536000 (a year)'],
    ] as const) {
      expect(() => loadConfig({ MINT_MAX_AUTH_AGE_SECONDS: value })).toThrow(message);
    }
  });

  it('limits POST /credentials/revoke to 60 an hour per client address unless REVOKE_BY_VALUE_* say otherwise', () => {
    expect(loadConfig({})).toMatchObject({ revokeByValueLimit: 60, revokeByValueWindowMs: 3_600_000 });
    expect(loadConfig({ REVOKE_BY_VALUE_LIMIT: '5', REVOKE_BY_VALUE_WINDOW_SECONDS: '60' })).toMatchObject({
      revokeByValueLimit: 5,
      revokeByValueWindowMs: 60_000,
    });
    expect(() => loadConfig({ REVOKE_BY_VALUE_LIMIT: '0' })).toThrow(/REVOKE_BY_VALUE_LIMIT/);
    expect(() => loadConfig({ REVOKE_BY_VALUE_WINDOW_SECONDS: 'hourly' })).toThrow(/REVOKE_BY_VALUE_WINDOW_SECONDS/);
  });
});
