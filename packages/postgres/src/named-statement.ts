/**
 * A statement whose parameters are named: its text numbers them `$1`, `$2`, ... in the order
 * each name first appears, and `params` puts named arguments in that order. A parameter added to
 * a statement renumbers nothing by hand. @internal
 */
export interface NamedStatement {
  readonly text: string;
  /** The positional parameters of {@link text}; throws naming a parameter that `args` lacks. */
  params(args: Readonly<Record<string, unknown>>): unknown[];
}

/** The placeholder of a named parameter: `$n`, the same `n` each time a name comes again. @internal */
export type Placeholder = (name: string) => string;

/**
 * Writes a statement with named parameters, once (at module load: a named prepared statement
 * keeps one text).
 *
 * @example
 * ```ts
 * const byAccount = namedStatement((p) => `select id from ${KEYS_TABLE} where account_id = ${p('accountId')} limit ${p('limit')}`);
 * await db.query(byAccount.text, byAccount.params({ accountId: 'acct_1', limit: 10 }));
 * ```
 * @internal
 */
export function namedStatement(write: (p: Placeholder) => string): NamedStatement {
  const names: string[] = [];
  const text = write((name) => {
    const at = names.indexOf(name);
    return `$${at === -1 ? names.push(name) : at + 1}`;
  });
  return {
    text,
    params(args) {
      return names.map((name) => {
        if (!Object.hasOwn(args, name)) throw new Error(`statement parameter ${name} not given`);
        return args[name];
      });
    },
  };
}
