import { SETTING_ENTRIES, SETTINGS, type SettingKey } from './settings.js';

/** The docs page that holds the settings table, from the repository root. */
export const SETTINGS_DOCS_PAGE = 'docs/reference-server.md';

const BEGIN =
  '<!-- settings table: written from examples/express-server/src/settings.ts by `pnpm --filter @drops/example-express-server run docs:settings` -->';
const END = '<!-- end of settings table -->';

// `{{key}}` in a setting's docs text: its variable's name.
function named(text: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in SETTINGS)) throw new Error(`settings.ts: {{${key}}} names no setting`);
    return SETTINGS[key as SettingKey].env;
  });
}

/** The settings as a Markdown table, one row each, in table order. */
export function settingsTable(): string {
  const rows = SETTING_ENTRIES.map(([, s]) => {
    const unset = s.default === undefined ? named(s.unset ?? '-') : `\`${s.default}\``;
    return `| \`${s.env}\` | ${named(s.meaning)} | ${unset} |`;
  });
  return ['| var | meaning | default |', '|---|---|---|', ...rows].join('\n');
}

/** `markdown` with the table between its settings-table markers written anew. */
export function withSettingsTable(markdown: string): string {
  const begin = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${SETTINGS_DOCS_PAGE}: the settings table markers are missing`);
  return `${markdown.slice(0, begin + BEGIN.length)}\n${settingsTable()}\n${markdown.slice(end)}`;
}
