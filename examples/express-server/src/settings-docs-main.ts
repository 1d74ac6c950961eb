// `pnpm run docs:settings`: writes docs/reference-server.md's settings table from settings.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { SETTINGS_DOCS_PAGE, withSettingsTable } from './settings-docs.js';

const path = new URL(`../../../${SETTINGS_DOCS_PAGE}`, import.meta.url);
writeFileSync(path, withSettingsTable(readFileSync(path, 'utf8')));
