import { DropsAuthError, type Principal } from '@drops/auth';
import { answerOfError, writeNodeAnswer } from '@drops/auth/adapter';
import { Catch, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { DropsAuthContext } from './drops-auth-options.js';
import { DROPS_AUTH } from './drops-auth-token.js';
import { rawResponseOf } from './raw-http.js';

/**
 * Answers a `DropsAuthError` thrown by a guard or a route (the uniform 401, a 503 when the key store
 * or identity provider cannot answer, a 404 of `keys.revoke`, …) with its own status, headers in
 * the canonical order and body bytes, written to Node's response: never Nest's exception JSON.
 * `DropsAuthModule.forRoot()` registers it globally.
 */
@Catch(DropsAuthError)
export class DropsAuthErrorFilter implements ExceptionFilter<DropsAuthError> {
  constructor(@Inject(DROPS_AUTH) private readonly context: DropsAuthContext) {}

  catch(error: DropsAuthError, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const http = host.switchToHttp();
    const request = http.getRequest<{ auth?: Principal | null }>();
    const answer = answerOfError(error, this.context.authenticator);
    this.context.onError?.(answer, request);
    // Thrown by a route after the guard: the expiry warning, as on the route's own answers.
    writeNodeAnswer(rawResponseOf(http.getResponse()), answer, request.auth);
  }
}
