#!/usr/bin/env node
// The command's entry, committed so that it exists before the package is built: a package
// manager links bins at install time, and a bin pointing into dist/ is a warning (and no command)
// in a fresh clone. The command itself is the build's dist/cli.js.
import '../dist/cli.js';
