export {
  createGitHubSecretScanning,
  type GitHubSecretScanning,
} from './create-github-secret-scanning.js';
export {
  GITHUB_SECRET_SCANNING_KEYS_URL,
  type GitHubSecretScanningOptions,
} from './github-secret-scanning-options.js';
export type { GitHubSecretScanningMatch } from './parse-secret-scanning-matches.js';
export type { GitHubSecretScanningFeedback } from './github-secret-scanning-feedback.js';
