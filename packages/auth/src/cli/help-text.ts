/** `drops-auth --help`. */
export const MAIN_HELP = `Usage: drops-auth <command> [options]

Offline tools for drops API keys. Nothing here talks to the network.

Commands:
  key-id            read an API key on stdin, print its id and prefix
  scan <paths...>   find API keys in files and directories (exit 1 when any is found)

Options:
  -h, --help        show help (also: drops-auth <command> --help)
  -v, --version     show the version
`;

/** `drops-auth key-id --help`. */
export const KEY_ID_HELP = `Usage: drops-auth key-id [--json] < secret

Reads one API key (hp_ followed by 43 base64url characters) on stdin and prints its id, the
SHA-256 used by DELETE /keys/<id>, and its prefix, as shown in key listings. The secret is never
taken from arguments, which would leave it in your shell history, and never printed.

Options:
  --json       print {"id": "...", "prefix": "..."}
  -h, --help   show this help

Examples:
  printenv DROPS_API_KEY | drops-auth key-id
  drops-auth key-id < old-key.txt

Exit status: 0 printed, 1 the input is not an API key, 2 usage error.
`;

/** `drops-auth scan --help`. */
export const SCAN_HELP = `Usage: drops-auth scan [--json] <paths...>

Finds drops API keys (hp_ followed by 43 base64url characters) in files, and in directories
recursively. Prints file:line:column, the key's prefix and its id; never the secret.

Skipped: binary files (a NUL byte in the first 8 KiB), node_modules and .git directories,
symbolic links, and, inside a git working tree, whatever git ignores (.gitignore,
.git/info/exclude, core.excludesFile). A file named explicitly is always scanned.

Options:
  --json       print one JSON object per finding: {"file", "line", "column", "prefix", "id"}
  -h, --help   show this help

Examples:
  drops-auth scan .
  git diff --cached --name-only -z --diff-filter=ACM | xargs -0 -r drops-auth scan

Exit status: 0 no key found, 1 keys found, 2 usage error or a file could not be read.
`;
