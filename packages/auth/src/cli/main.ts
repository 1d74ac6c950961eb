#!/usr/bin/env node
import { runCli } from './run-cli.js';

runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (status) => {
    process.exitCode = status;
  },
  () => {
    process.stderr.write('drops-auth: unexpected error\n');
    process.exitCode = 2;
  },
);
