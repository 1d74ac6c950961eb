// Moved to @drops/auth/testing, shared with the adapters' tests; kept here so imports stay short.
export { rawRequest, type RawResponse } from '@drops/auth/testing';
