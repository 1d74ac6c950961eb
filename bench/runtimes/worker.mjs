// workerd, without nodejs_compat (the Web Crypto build, `workerd` condition). Built on the first
// request: workerd's clock reads 0 at start-up, and the tokens need a real `iat`.
import { createVerifyBench } from './verify-app.mjs';

let handle;
export default {
  async fetch(request) {
    handle ??= await createVerifyBench();
    return handle(request);
  },
};
