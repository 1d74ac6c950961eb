// workerd (Cloudflare Workers), without `nodejs_compat`: the configuration arrives as bindings.
import { createConformanceApp, type ConformanceEnv } from '../conformance-app.js';

let app: ((request: Request) => Promise<Response>) | undefined;

export default {
  fetch(request: Request, env: ConformanceEnv): Promise<Response> {
    app ??= createConformanceApp(env);
    return app(request);
  },
};
