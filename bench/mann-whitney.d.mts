/** What {@link mannWhitney} finds. */
export interface MannWhitney {
  /** The U statistic of `a`. */
  readonly u: number;
  /** U standardised (normal approximation, ties corrected). */
  readonly z: number;
  /** Two-sided p. */
  readonly p: number;
  /** P(a > b) + P(a = b) / 2: 0.5 when neither tends to be larger. */
  readonly superiority: number;
}

/** The Mann-Whitney U test of `a` against `b` (see mann-whitney.mjs). */
export function mannWhitney(a: readonly number[], b: readonly number[]): MannWhitney;
