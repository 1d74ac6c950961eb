#!/usr/bin/env node
// The `drops-auth-postgres` command: the key store's migrations as a deploy step.
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
