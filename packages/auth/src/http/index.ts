export {
  readJsonBody,
  parseJsonText,
  DEFAULT_KEYS_BODY_LIMIT,
  type ReadJsonBodyOptions,
} from './read-json-body.js';
