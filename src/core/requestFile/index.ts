/** Request files (`*.carrier.json`): reading, locating, raw numbers and `{{variables}}`. */
export * from './types';
export { parseRequestFile, type ParsedRequestFile } from './parse';
export { parseJson, type ParsedJson } from './jsonc';
export { findDuplicateKeys, duplicateKeyFindings, duplicateKeyMessage, DUPLICATE_KEY_LIMIT, type DuplicateKey, type DuplicateKeys } from './duplicateKeys';
export { readRequestFile, type ReadOptions, type ReadResult } from './read';
export { JsonSource, type RangePart } from './source';
export { LineIndex } from './lineIndex';
export { formatPath, numberKey } from './jsonPath';
export { DEFAULT_BINDING, REQUEST_FILE_KEYS, REQUEST_FILE_KEY_NAMES, type RequestFileKey } from './format';
export {
  VARIABLE_NAME_SOURCE,
  VARIABLE_SOURCE,
  isVariableName,
  variableNameProblem,
  wholeVariable,
  containsVariable,
  findVariables,
  substituteVariables,
  UnknownVariableError,
  type VariableUse,
} from './variables';
export { closest, didYouMean, levenshtein } from './suggest';
export { rangeOfPath } from './range';
export { readTextFile, decodeUtf8, FileTextError, MAX_TEXT_FILE_BYTES } from './readText';
export { MAX_JSON_DEPTH, tooDeepAt } from './depth';
export { retryBrief, retryDelay, RETRY_DEFAULTS, RETRY_KEYS, MAX_RETRY_ATTEMPTS, MAX_RETRY_DELAY_MS, type RetryPolicy, type RetryBrief } from './retry';
export { tagProblem } from './tags';
