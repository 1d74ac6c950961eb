/**
 * Runs the built `drops-auth-postgres` binary (`dist/cli.js`; `pnpm build` first) against real
 * databases: migrations as a deploy step (idempotent, concurrent), `status`, the `sql` script
 * applied with psql and recognised by everything after it, and `grant` for a runtime role that
 * can create nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { keyStoreMigrations } from '../key-store-migrations.js';
import { openPostgresKeyStore } from '../open-key-store.js';
import { openPostgres } from '../open-postgres.js';
import { PostgresRateLimitStore } from '../postgres-rate-limit-store.js';
import { ADMIN_URL, freshDatabase, type FreshDatabase } from '../test-support/fresh-database.js';
import { writeExpiryNotices } from '../webhooks/expiry-notices.js';
import { PostgresWebhookStore } from '../webhooks/postgres-webhook-store.js';
import { startWebhookSender } from '../webhooks/webhook-sender.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const LATEST = keyStoreMigrations.length;
/** The newest migration's version (versions may skip a number while work lands in parallel). */
const LATEST_VERSION = Math.max(...keyStoreMigrations.map((m) => m.version));
const PREVIOUS_VERSION = Math.max(...keyStoreMigrations.map((m) => m.version).filter((v) => v < LATEST_VERSION));
const databases: FreshDatabase[] = [];
const roles: string[] = [];

afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    for (const role of roles) await admin.query(`drop role if exists ${role}`);
  } finally {
    await admin.end();
  }
});

async function fresh(label: string): Promise<FreshDatabase> {
  const database = await freshDatabase(`cli_${label}`);
  databases.push(database);
  return database;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The binary itself under Node (no wrapper), the database in DATABASE_URL unless given. */
function bin(args: readonly string[], databaseUrl?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, DATABASE_URL: databaseUrl ?? '' };
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function recordedVersions(database: FreshDatabase): Promise<number[]> {
  const pool = database.pool();
  const { rows } = await pool.query<{ version: number }>(
    `select version from drops_schema_migrations where namespace = 'drops_auth_keys' order by version`,
  );
  await pool.end();
  return rows.map((r) => r.version);
}

describe('drops-auth-postgres', () => {
  it('migrate applies every migration once, then nothing; status then exits 0', async () => {
    const database = await fresh('migrate');
    const first = await bin(['migrate'], database.url);
    expect(first).toMatchObject({ code: 0, stdout: `applied ${keyStoreMigrations.map((m) => m.version).join(', ')}\n` });
    expect(await bin(['migrate', '--database-url', database.url])).toMatchObject({ code: 0, stdout: 'up to date: nothing to apply\n' });
    const status = await bin(['status'], database.url);
    expect(status.code).toBe(0);
    expect(status.stdout.split('\n').filter((l) => l.startsWith('applied'))).toHaveLength(LATEST);
  });

  it('migrate run by several deploy jobs at once applies each migration exactly once', async () => {
    const database = await fresh('concurrent');
    const runs = await Promise.all([1, 2, 3].map(() => bin(['migrate'], database.url)));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(runs.filter((r) => r.stdout.startsWith('applied'))).toHaveLength(1);
    expect(await recordedVersions(database)).toEqual(keyStoreMigrations.map((m) => m.version));
  });

  it('status exits 1 on a fresh database; the sql script applied with psql is recognised by status, migrate and the store', async () => {
    const database = await fresh('sql');
    const before = await bin(['status'], database.url);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`${LATEST} pending: run drops-auth-postgres migrate`);
    const script = await bin(['sql']);
    expect(script.code).toBe(0);
    const psql = spawnSync('psql', [database.url, '-q', '-v', 'ON_ERROR_STOP=1'], { input: script.stdout, encoding: 'utf8' });
    expect(psql.stderr).toBe('');
    expect(psql.status).toBe(0);
    expect((await bin(['status'], database.url)).code).toBe(0);
    expect(await bin(['migrate'], database.url)).toMatchObject({ code: 0, stdout: 'up to date: nothing to apply\n' });
    for (const migrate of [false, true]) {
      const store = await openPostgresKeyStore({ connectionString: database.url, migrate });
      const key = sampleKeyRecord({ accountId: 'acct_sql' });
      await store.create(key);
      expect(await store.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_sql', expiresAt: null });
      await store.close();
    }
  });

  it('sql --from N prints only the migrations from N, still recorded', async () => {
    const { stdout, code } = await bin(['sql', '--from', String(LATEST_VERSION)]);
    expect(code).toBe(0);
    expect(stdout).toContain(`-- drops_auth_keys: migrations ${LATEST_VERSION}\n`);
    expect(stdout).toContain(`values ('drops_auth_keys', ${LATEST_VERSION}, `);
    expect(stdout).not.toContain(`values ('drops_auth_keys', ${PREVIOUS_VERSION}, `);
    expect((await bin(['sql', '--from', 'x'])).code).toBe(2);
  });

  it('openPostgresKeyStore({ migrate: false }) on an empty or older database refuses, naming drops-auth-postgres migrate, and creates nothing', async () => {
    const database = await fresh('refuse');
    await expect(openPostgresKeyStore({ connectionString: database.url, migrate: false })).rejects.toThrow(/drops-auth-postgres migrate/);
    const pool = database.pool();
    expect((await pool.query(`select to_regclass('drops_auth_keys') as t`)).rows).toEqual([{ t: null }]);
    await pool.end();
  });

  it('grant gives a role what the store needs and nothing that creates: mint, use and revoke as that role', async () => {
    const database = await fresh('grant');
    const role = `drops_rt_${randomBytes(4).toString('hex')}`;
    roles.push(role);
    const admin = database.pool();
    await admin.query(`create role ${role} login`);
    await admin.query(`revoke create on schema public from public`);
    expect((await bin(['grant', role], database.url)).code).toBe(1); // nothing to grant on before migrate
    expect((await bin(['migrate'], database.url)).code).toBe(0);
    expect(await bin(['grant', role], database.url)).toMatchObject({ code: 0 });
    const asRole = new URL(database.url);
    asRole.username = role;
    const store = await openPostgresKeyStore({ connectionString: asRole.toString(), migrate: false });
    // Default options too: on an up-to-date schema, opening attempts no DDL the role may not run.
    const peer = await openPostgresKeyStore({ connectionString: asRole.toString() });
    try {
      const key = sampleKeyRecord({ accountId: 'acct_role' });
      expect(await store.createWithinLimit(key, 10)).toBe(true);
      expect(await peer.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_role', expiresAt: null });
      store.recordUse(key.id, new Date());
      expect(await store.revoke('acct_role', key.id, { at: new Date() })).toBe(true);
      expect(await peer.findActive(key.id)).toBeNull();
      // The use was written before the revocation, as that role too: its event comes first.
      expect((await peer.listEvents('acct_role', { limit: 5 })).events.map((e) => e.type)).toEqual(['revoked', 'first_used', 'minted']);
      // The shared rate limits, as that role: counted, and refused past the limit.
      const limits = await openPostgres({ connectionString: asRole.toString() });
      try {
        const rateLimits = new PostgresRateLimitStore({ db: limits });
        const limit = { max: 1, windowMs: 60_000 };
        expect(await rateLimits.take('mint', 'acct_role', limit)).toBe(0);
        expect(await rateLimits.take('mint', 'acct_role', limit)).toBeGreaterThan(0);
        // Webhooks, as that role: an endpoint set, an event queued by the trigger, the outbox claimed and
        // emptied, expiry notices written, a plain UPDATE's event recorded.
        const webhooks = new PostgresWebhookStore({ db: limits });
        await webhooks.set('acct_role', 'http://127.0.0.1:9/hooks', `whsec_${'A'.repeat(43)}=`);
        const hooked = sampleKeyRecord({ accountId: 'acct_role' });
        expect(await store.createWithinLimit(hooked, 10)).toBe(true);
        await limits.query(`update drops_auth_keys set revoked_at = now() where id = $1`, [hooked.id]);
        expect(await writeExpiryNotices(limits)).toEqual({ expiring: 0, expired: 0, pruned: 0 });
        const posted: string[] = [];
        const sender = startWebhookSender({
          db: limits,
          post: async (_url, headers) => {
            posted.push(headers['webhook-id'] ?? '');
            return { delivered: true, status: 204 };
          },
        });
        await sender.runOnce();
        await sender.stop();
        expect(posted).toHaveLength(2);
        expect(await webhooks.remove('acct_role')).toBe(true);
      } finally {
        await limits.close();
      }
    } finally {
      await Promise.all([store.close(), peer.close()]);
    }
    const runtime = new pg.Client({ connectionString: asRole.toString() });
    await runtime.connect();
    try {
      await expect(runtime.query('create table mischief (id int)')).rejects.toThrow(/permission denied/);
      await expect(runtime.query('alter table drops_auth_keys add column mischief int')).rejects.toThrow(/must be owner/);
    } finally {
      await runtime.end();
    }
    await admin.end();
  });

  it('refuses a command without a database, an unknown command, and never prints the URL', async () => {
    expect((await bin(['status'])).code).toBe(2);
    expect((await bin(['frobnicate'], 'postgres://u:s3cret@127.0.0.1:1/none')).code).toBe(2);
    const down = await bin(['status'], 'postgres://u:s3cret@127.0.0.1:1/none');
    expect(down.code).toBe(1);
    expect(down.stdout + down.stderr).not.toContain('s3cret');
  });
});
