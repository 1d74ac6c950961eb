// Prints the test run's closing line in the plain form CI tools read ("tests: N passed, N failed"),
// from the JSON report `pnpm test` asks vitest to write. Exits non-zero if the report is missing or
// counts no test at all, so a run that tested nothing can never pass for green.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('../.tmp/vitest-report.json', import.meta.url), 'utf8'));
const { numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped, numTotalTests: total } = report;
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (total === 0 || failed > 0) process.exit(1);
