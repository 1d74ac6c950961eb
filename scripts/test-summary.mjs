// Prints the test run's closing line in the plain form CI tools read ("tests: N passed, N failed"),
// from the JSON reports `pnpm test` asks vitest to write: the main run's and one per Node version
// of scripts/node-matrix.mjs. Exits non-zero if a report is missing or counts no test at all, so a
// run that tested nothing can never pass for green.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const tmp = new URL('../.tmp/', import.meta.url);
const matrixDir = new URL('node-matrix/', tmp);
const matrix = existsSync(matrixDir) ? readdirSync(matrixDir).filter((name) => name.endsWith('.json')) : [];
if (matrix.length === 0) throw new Error('no report in .tmp/node-matrix/: did scripts/node-matrix.mjs run?');
const reports = ['vitest-report.json', ...matrix.map((name) => `node-matrix/${name}`)].map((path) =>
  JSON.parse(readFileSync(new URL(path, tmp), 'utf8')),
);
const sum = (key) => reports.reduce((total, report) => total + report[key], 0);
const [passed, failed, skipped] = [sum('numPassedTests'), sum('numFailedTests'), sum('numPendingTests')];
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (reports.some((report) => report.numTotalTests === 0 || report.numFailedTestSuites > 0) || failed > 0) process.exit(1);
