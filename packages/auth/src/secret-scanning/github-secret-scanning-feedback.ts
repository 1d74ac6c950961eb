import { keyIdOf } from '../api-key/key-id.js';
import type { RequestInfo } from '../key-store/key-event.js';
import type { KeyManager } from '../keys/create-key-manager.js';
import type { GitHubSecretScanningMatch } from './parse-secret-scanning-matches.js';

/** One entry of the answer to a secret scanning alert, in GitHub's shape. */
export interface GitHubSecretScanningFeedback {
  /** Lowercase hex SHA-256 of the token: for one of our keys, its key id. */
  readonly token_hash: string;
  /** The match's `type`, as GitHub sent it. */
  readonly token_type: string;
  /** `true_positive` when the token is one of our keys (revoked now or before), else `false_positive`. */
  readonly label: 'true_positive' | 'false_positive';
}

/**
 * Revokes the keys among verified secret scanning matches and answers GitHub's feedback, one
 * entry per match, in order. The matches found at one URL are revoked in one call, with that URL
 * on their events (source `github_secret_scanning`, actor `github`). A store failure rejects with
 * `UnavailableError` (503), so GitHub sends the alert again.
 * @internal
 */
export async function revokeGitHubMatches(
  keys: Pick<KeyManager, 'revokeBySecret'>,
  matches: readonly GitHubSecretScanningMatch[],
  request: RequestInfo,
): Promise<GitHubSecretScanningFeedback[]> {
  const byUrl = new Map<string | null, number[]>();
  matches.forEach((match, index) => {
    const positions = byUrl.get(match.url);
    if (positions === undefined) byUrl.set(match.url, [index]);
    else positions.push(index);
  });
  const feedback: GitHubSecretScanningFeedback[] = new Array(matches.length);
  for (const [url, positions] of byUrl) {
    const results = await keys.revokeBySecret(
      positions.map((i) => matches[i]!.token),
      { source: 'github_secret_scanning', request, url },
    );
    positions.forEach((matchIndex, i) => {
      const match = matches[matchIndex]!;
      const { keyId, status } = results[i]!;
      feedback[matchIndex] = {
        token_hash: keyId ?? keyIdOf(match.token),
        token_type: match.type,
        label: status === 'revoked' || status === 'already_revoked' ? 'true_positive' : 'false_positive',
      };
    });
  }
  return feedback;
}
