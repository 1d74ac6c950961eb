/** Returns the current time in milliseconds since the epoch. Defaults to `Date.now`. */
export type Clock = () => number;

/** The real clock. */
export const systemClock: Clock = () => Date.now();
