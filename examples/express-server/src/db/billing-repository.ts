import type { Queryable } from '@drops/auth-postgres';

/** The plan every account starts on. */
export const DEFAULT_PLAN = 'free';

/** Billing accounts: the plan of each account, persisted on first read. */
export class BillingRepository {
  constructor(private readonly db: Queryable) {}

  /** The account's plan; creates its billing row (on the default plan) the first time. */
  async planOf(accountId: string): Promise<string> {
    const { rows } = await this.db.query<{ plan: string }>(
      `with created as (
         insert into billing_accounts (account_id, plan) values ($1, $2)
         on conflict (account_id) do nothing returning plan
       )
       select plan from created union all select plan from billing_accounts where account_id = $1 limit 1`,
      [accountId, DEFAULT_PLAN],
    );
    return rows[0]?.plan ?? DEFAULT_PLAN;
  }
}
