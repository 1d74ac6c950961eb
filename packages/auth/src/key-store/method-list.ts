/**
 * `methods`, checked by the compiler to name every method of `T`, and only those: a contract's
 * method list, written beside its interface, cannot fall behind it.
 * @internal
 */
export const methodsOf =
  <T>() =>
  <const L extends readonly (keyof T & string)[]>(
    methods: L & ([Exclude<keyof T, L[number]>] extends [never] ? unknown : { readonly missing: Exclude<keyof T, L[number]> }),
  ): L =>
    methods;
