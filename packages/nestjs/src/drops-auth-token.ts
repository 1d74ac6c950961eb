/**
 * The injection token of the module's checked options (`DropsAuthContext`), provided globally by
 * `DropsAuthModule.forRoot()`; the guards and the error filter inject it.
 * @internal
 */
export const DROPS_AUTH = Symbol('drops-auth');
