import type { Principal as DropsPrincipal } from '@drops/auth';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * A route parameter decorator giving the principal (`accountId`, `credentialType`, …) that
 * `DropsAuthGuard` or `DropsIdTokenGuard` authenticated. `undefined` on a route without one.
 *
 * @example
 * ```ts
 * @Get('whoami')
 * @UseGuards(DropsAuthGuard)
 * whoami(@Principal() principal: Principal) {
 *   return { accountId: principal.accountId };
 * }
 * ```
 */
export const Principal: () => ParameterDecorator = createParamDecorator(
  (_data: unknown, execution: ExecutionContext): DropsPrincipal | undefined =>
    execution.switchToHttp().getRequest<{ auth?: DropsPrincipal }>().auth,
);
