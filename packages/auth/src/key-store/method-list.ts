/**
 * `L` if it names every method of `T` (and only those), else `never`: a contract's method list,
 * written beside its interface as `[...] as const satisfies MethodList<T, typeof list>`, cannot fall
 * behind it. Types only: nothing of it reaches a bundle.
 * @internal
 */
export type MethodList<T, L extends readonly (keyof T)[]> = [Exclude<keyof T, L[number]>] extends [never] ? L : never;
