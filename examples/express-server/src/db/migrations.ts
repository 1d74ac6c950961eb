import type { Migration } from '@drops/auth-postgres';

/** The migration set of the server's own tables, next to the key store's in one database. */
export const SERVER_NAMESPACE = 'drops_server';

/**
 * The server's tables. Anonymous drops have no owner and always an expiry; owned drops never
 * expire. Vanity names point at a drop and go when it goes. A plan row is created the first time
 * an account asks for it.
 */
export const serverMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'drops, vanity names and billing accounts',
    sql: `
      create table drops (
        slug text primary key,
        owner text,
        content bytea not null,
        content_type text not null,
        size integer not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        expires_at timestamptz,
        check (owner is not null or expires_at is not null)
      );
      create index drops_by_owner on drops (owner, created_at desc, slug) where owner is not null;
      create index drops_by_expiry on drops (expires_at) where expires_at is not null;

      create table vanity_names (
        name text primary key,
        account_id text not null,
        slug text not null references drops (slug) on delete cascade,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index vanity_names_by_account on vanity_names (account_id, name);
      create index vanity_names_by_slug on vanity_names (slug);

      create table billing_accounts (
        account_id text primary key,
        plan text not null default 'free',
        created_at timestamptz not null default now()
      );
    `,
  },
];
