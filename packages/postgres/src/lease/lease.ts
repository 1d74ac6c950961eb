/**
 * The timing of a cache lease (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md). The database sets a lease row's expiry with
 * its own clock (`now() + leaseMs`); the instance trusts its cache until its local deadline:
 * the monotonic time read before the renewal was sent, plus the lease, minus a margin for the
 * difference in clock rates. The renewal executes after it was sent, so the row expires after the
 * local deadline as long as the rates differ by less than `marginMs / leaseMs`.
 * @internal
 */
export interface LeaseTiming {
  /** Lease length, in ms. */
  readonly leaseMs: number;
  /** Subtracted from the local deadline for clock-rate error, in ms. */
  readonly marginMs: number;
}

/** Local deadline of a lease whose renewal was sent at monotonic time `sentAt`. @internal */
export function leaseDeadline(timing: LeaseTiming, sentAt: number): number {
  return sentAt + timing.leaseMs - timing.marginMs;
}

/** How often the lease is renewed: a third of its length, so two renewals may fail before it lapses. @internal */
export function renewalIntervalMs(timing: LeaseTiming): number {
  return Math.max(1, Math.floor(timing.leaseMs / 3));
}
