import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run for minutes (npm installs, framework builds, servers started per test), the
 * longest first. vitest orders a fresh clone's files by project name, then by size, so one of
 * these could start late and run on alone while the other workers idle; started first, the short
 * files fill in around them. A file missing here is only started later.
 */
const LONGEST_FILES = [
  'consumers/src/consumer-apps.test.ts',
  'packages/postgres/src/open-key-store.test.ts',
  'docs/runnable-examples.test.ts',
  'packages/postgres/src/postgres-key-store.test.ts',
  'examples/express-server/src/webhooks/webhooks.test.ts',
  'examples/express-server/src/security/timing-revoke-by-value.test.ts',
  'consumers/src/core-types.test.ts',
];

/** vitest's order (groupOrder, failed and slowest of the last run first), with {@link LONGEST_FILES} ahead in their group. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const index = LONGEST_FILES.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return index === -1 ? LONGEST_FILES.length : index;
    };
    const groupOrder = (file: TestSpecification): number => file.project.config.sequence.groupOrder;
    // Array.prototype.sort is stable: the rest keeps vitest's own order.
    return (await super.sort(files)).sort((a, b) => groupOrder(a) - groupOrder(b) || rank(a) - rank(b));
  }
}
