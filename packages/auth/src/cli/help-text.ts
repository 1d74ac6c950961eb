import { keyRouteText } from '../key-routes/key-route-table.js';

/** `drops-auth --help`. */
export const MAIN_HELP = `Usage: drops-auth <command> [options]

Tools for drops API keys. key-id and scan are offline; revoke and scan --revoke send the keys
they find to your drops server to revoke them; keys lists your keys and keys roll replaces one,
with the credential in DROPS_API_KEY; nothing else talks to the network.

Commands:
  key-id                         read an API key on stdin, print its id and prefix
  scan <paths...>                find API keys in files and directories (exit 1 when any is found)
  scan --revoke <base> <paths>   the same, then revoke every key found by value
  revoke --url <base> [files]    revoke by value the keys in the files, or on stdin
  keys --url <base>              list the account's keys and when each expires (DROPS_API_KEY)
  keys roll <id> --url <base>    mint the replacement of a key; the old one works for a grace (ID token)
  keys revoke <id> --url <base>  revoke a key of the account by id (DROPS_API_KEY)
  sign-out-everywhere --url <base>  print the command that signs the account out everywhere (ID token)

--url may be left out when DROPS_URL holds the server's base URL (revoke, keys, sign-out-everywhere).

Options:
  -h, --help        show help (also: drops-auth <command> --help)
  -v, --version     show the version
`;

/** `drops-auth key-id --help`. */
export const KEY_ID_HELP = `Usage: drops-auth key-id [--json] < secret

Reads one API key (hp_ followed by 43 base64url characters) on stdin and prints its id, the
SHA-256 used by ${keyRouteText('revoke')}, and its prefix, as shown in key listings. The secret is never
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
export const SCAN_HELP = `Usage: drops-auth scan [--json] [--revoke <base URL>] <paths...>

Finds drops API keys (hp_ followed by 43 base64url characters) in files, and in directories
recursively. Prints file:line:column, the key's prefix and its id; never the secret.

Skipped: binary files (a NUL byte in the first 8 KiB), node_modules and .git directories,
symbolic links, and, inside a git working tree, what its ignore files ignore (.gitignore
at every level, .git/info/exclude), read without running git. A file named explicitly is
always scanned. The summary on stderr says how many paths were skipped, and why.

With --revoke, once the scan is done it lists the distinct keys found (prefix, id, files) and
revokes them by value: POST <base URL>/credentials/revoke, as drops-auth revoke does.

Options:
  --json                 print one JSON object per finding: {"file", "line", "column", "prefix", "id"}
  --revoke <base URL>    then revoke every key found (https:, or http: to a loopback host)
  -h, --help             show this help

Examples:
  drops-auth scan .
  drops-auth scan --revoke https://drops.example.com ./leaked-repo
  git diff --cached --name-only -z --diff-filter=ACM | xargs -0 -r drops-auth scan

Exit status: 0 no key found, 1 keys found (with --revoke: and the server accepted them all),
2 usage error or a file could not be read, 3 the server did not accept the revocation.
`;

/** `drops-auth revoke --help`. */
export const REVOKE_HELP = `Usage: drops-auth revoke --url <base URL> [--json] [files...]

Revokes API keys by value: finds every drops API key (hp_ followed by 43 base64url characters) in
the files, or on stdin when no file is named, and sends them to POST <base URL>/credentials/revoke,
at most 1000 per request. No credential is needed: holding a key is the right to revoke it. Use it
for keys that leaked, yours or someone else's.

Prints each key's prefix and id (never the secret), then the server's answer. The server accepts
the request whether or not the keys existed and never says which did; a key that is already
revoked or unknown changes nothing, so running the command again is harmless.

Options:
  --url <base URL>   the drops server, e.g. https://drops.example.com (https:; http: only for
                     127.0.0.0/8, localhost or [::1]). Redirects are not followed.
                     Default: the DROPS_URL environment variable.
  --json             print one JSON object per key: {"prefix", "id", "files"}
  -h, --help         show this help

Examples:
  drops-auth revoke --url https://drops.example.com leaked.env
  pbpaste | drops-auth revoke --url https://drops.example.com

Exit status: 0 the server accepted every key, 1 no key in the input (nothing sent), 2 usage error
or an input could not be read (nothing sent), 3 the server refused (429: it says when to retry)
or could not be reached.
`;

/** `drops-auth keys --help`. */
export const KEYS_HELP = `Usage: DROPS_API_KEY=... drops-auth keys --url <base URL> [--json]
       DROPS_API_KEY=<ID token> drops-auth keys roll <id> --url <base URL> [--grace <seconds>] [--json]
       DROPS_API_KEY=... drops-auth keys revoke <id> --url <base URL>

Lists the account's active keys (${keyRouteText('list', '<base URL>')}): prefix, name, id and when each expires;
never a secret. The credential (an API key, or an ID token) is read from the DROPS_API_KEY
environment variable, never from arguments, which would leave it in your shell history.
When the server says the key used expires within 7 days (the Drops-Key-Expiration header), a
warning with the date goes to stderr: roll the key before then.

keys roll <id> mints the replacement of key <id> (${keyRouteText('roll', '<base URL>')}; a roll mints,
so DROPS_API_KEY must hold an ID token) and prints the new key alone on stdout: the one secret
this tool prints, since it minted it. The old key keeps working --grace seconds (the server's
default: a day; at most 604800), then expires.

keys revoke <id> revokes key <id> of the account (DELETE <base URL>/keys/<id>): once it answers,
no request with that key is accepted. 404 when the account has no active key with that id.

Options:
  --url <base>  the drops server (https:, or http: on loopback); default: DROPS_URL
  --json        print one {"id", "prefix", "name", "createdAt", "expiresAt"} object per line
                (roll: the server's answer, the new key and the id it replaces)
  --grace <s>   roll: how long the old key keeps working, in seconds
  -h, --help    show this help

Example:
  DROPS_API_KEY="$(cat ~/.config/drops/key)" drops-auth keys --url https://drops.example.com
  NEW_KEY=$(DROPS_API_KEY="$ID_TOKEN" drops-auth keys roll 3f0c… --url https://drops.example.com --grace 3600)

Exit status: 0 listed (or rolled, or revoked), 2 usage error (no DROPS_API_KEY), 3 the server refused or could not be reached.
`;

/** `drops-auth sign-out-everywhere --help`. */
export const SIGN_OUT_HELP = `Usage: drops-auth sign-out-everywhere --url <base URL>

Prints the command that signs the account out everywhere (DELETE <base URL>/sessions): every ID
token of the account signed in until then is refused on every server instance, the one sent
included; API keys keep working (revoke them with DELETE <base URL>/keys). Run it with an ID token
of the account in ID_TOKEN (the dashboard's "Sign out everywhere" does the same). This tool sends
nothing: only an ID token may sign out, and it never holds one.

It does not end the sign-in at your identity provider: sign out there too (and revoke its refresh
tokens), or it hands out fresh ID tokens to whoever still holds that sign-in.

Options:
  --url <base>  the drops server (https:, or http: on loopback); default: DROPS_URL
  -h, --help    show this help

Example:
  drops-auth sign-out-everywhere --url https://drops.example.com
  # curl --fail-with-body -X DELETE -H "Authorization: Bearer $ID_TOKEN" 'https://drops.example.com/sessions'

Exit status: 0 printed, 2 usage error.
`;
