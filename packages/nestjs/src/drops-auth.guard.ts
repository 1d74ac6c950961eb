import type { CredentialType } from '@drops/auth';
import {
  assertVerifiesIdTokens,
  authorizationOfNodeRequest,
  createAuthCheck,
  isErrorAnswer,
  KEY_EXPIRATION_HEADER,
  keyExpirationHeader,
  parseAccept,
  requestInfoOfNodeRequest,
  type AuthAnswer,
  type AuthCheck,
} from '@drops/auth/adapter';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { DropsAuthContext } from './drops-auth-options.js';
import { DROPS_AUTH } from './drops-auth-token.js';
import { clientIpOf, rawRequestOf } from './raw-http.js';

/**
 * A guard that lets a request through only with a valid API key or ID token, and sets
 * `request.auth` to its principal (read it with `@Principal()`). Anything else is the uniform 401,
 * the exact bytes every drops adapter sends (not Nest's `UnauthorizedException` JSON); a key store
 * or identity provider that cannot answer is a 503 with `Retry-After`. Needs
 * `DropsAuthModule.forRoot()` in the app.
 *
 * @example
 * ```ts
 * @Controller()
 * class DropsController {
 *   @Get('drops')
 *   @UseGuards(DropsAuthGuard)
 *   list(@Principal() principal: Principal) {
 *     return { owner: principal.accountId };
 *   }
 * }
 * ```
 */
@Injectable()
export class DropsAuthGuard implements CanActivate {
  /** The credential types this guard accepts. */
  protected readonly accept: readonly CredentialType[] = parseAccept(undefined);

  /** The check, built on the first request: `accept` is a subclass's by then. */
  #check: AuthCheck | undefined;

  constructor(@Inject(DROPS_AUTH) private readonly context: DropsAuthContext) {}

  canActivate(execution: ExecutionContext): boolean | Promise<boolean> {
    if (execution.getType() !== 'http') {
      throw new TypeError(`${this.constructor.name} guards HTTP routes; this is a "${execution.getType()}" context`);
    }
    const http = execution.switchToHttp();
    const request = http.getRequest<{ auth?: unknown }>();
    const raw = rawRequestOf(request);
    this.#check ??= createAuthCheck(this.context.authenticator, { accept: this.accept });
    const answer = this.#check(authorizationOfNodeRequest(raw), () => requestInfoOfNodeRequest(raw, clientIpOf(request)));
    // An answer at hand is a boolean at once; a DropsAuthError thrown here is answered by
    // DropsAuthErrorFilter as its exact bytes.
    return answer instanceof Promise ? answer.then((settled) => admit(http, request, settled)) : admit(http, request, answer);
  }
}

/** Sets `request.auth` and says `true`, or throws the failure for DropsAuthErrorFilter to answer. */
function admit(http: ReturnType<ExecutionContext['switchToHttp']>, request: { auth?: unknown }, answer: AuthAnswer): true {
  if (isErrorAnswer(answer)) throw answer;
  request.auth = answer;
  // Express's response and Fastify's reply both have `header(name, value)`.
  const expiration = keyExpirationHeader(answer);
  if (expiration !== null) http.getResponse<{ header(name: string, value: string): unknown }>().header(KEY_EXPIRATION_HEADER, expiration);
  return true;
}

/**
 * {@link DropsAuthGuard} for routes only a signed-in person may use (account settings, anything
 * that mints keys): an ID token only; an API key is the uniform 401.
 *
 * @example
 * ```ts
 * @Get('account')
 * @UseGuards(DropsIdTokenGuard)
 * account(@Principal() principal: Principal) {
 *   return { accountId: principal.accountId };
 * }
 * ```
 */
@Injectable()
export class DropsIdTokenGuard extends DropsAuthGuard {
  protected override readonly accept: readonly CredentialType[] = parseAccept(['id_token']);

  // Built when the app is created: over an authenticator that cannot verify ID tokens every
  // request would be a 401, so the app refuses to start instead.
  constructor(@Inject(DROPS_AUTH) context: DropsAuthContext) {
    super(context);
    assertVerifiesIdTokens(context.authenticator, 'DropsIdTokenGuard');
  }
}
