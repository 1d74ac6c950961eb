// The Redis walkthrough of docs/key-stores.md, on the Redis at 127.0.0.1:6379 that others use
// too: the example gets a `prefix` of its own, and what it wrote under it is deleted afterwards.
import { randomUUID } from 'node:crypto';
import { deleteKeysUnder } from '@drops/example-redis-key-store/delete-keys-under';
import { afterExample } from '../harness/support.js';

const prefix = `drops-docs:${randomUUID()}:`;
afterExample(() => deleteKeysUnder('redis://127.0.0.1:6379', prefix));

// <<example>>
