// The child behind consumers/src/compiler.ts: compiles scratch projects one after another, as
// `tsc -p <tsconfig> --pretty false` would (same diagnostics, same emit, same exit code), in one
// process that stays warm. A fresh tsc spends more time compiling the compiler than the project.
//
// Takes { id, dir, tsconfig } messages; answers { id, code, output } for each.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ts = createRequire(import.meta.url)('typescript');

/** tsc's exit codes: errors with the output written, and errors before any (a config that cannot be read). */
const ERRORS_OUTPUT_WRITTEN = 2;
const ERRORS_NOTHING_WRITTEN = 1;

/** @returns {{ code: number, output: string }} */
function compile(dir, tsconfig) {
  /** @type {import('typescript').Diagnostic[]} */
  const unrecoverable = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, tsconfig), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => unrecoverable.push(diagnostic),
  });
  const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => dir, getNewLine: () => '\n' };
  if (parsed === undefined) return { code: ERRORS_NOTHING_WRITTEN, output: ts.formatDiagnostics(unrecoverable, formatHost) };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  const errors = diagnostics.some((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  return {
    code: errors ? ERRORS_OUTPUT_WRITTEN : 0,
    output: ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), formatHost),
  };
}

process.on('message', ({ id, dir, tsconfig }) => {
  let result;
  try {
    result = compile(dir, tsconfig);
  } catch (error) {
    result = { code: ERRORS_NOTHING_WRITTEN, output: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  process.send({ id, ...result });
});
// The test that started it is gone (or done with it): so is this process.
process.on('disconnect', () => process.exit(0));
