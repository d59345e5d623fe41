/** Request-file validation: ajv on the generated schemas, plus the catalog's own rules. */
export {
  validateRequestText,
  hasErrors,
  sendableRequest,
  environmentOfFile,
  type ValidateOptions,
  type ValidationContext,
  type ValidationResult,
} from './validate';
export { contractCompletions, contractHover, type ContractCompletion } from './contractEditor';
export { addedAt, contractSource, describeAdded } from './contractFindings';
export { formatFinding, oneBased } from './format';
export { paramsValidator, requestFileValidator } from './schemaValidator';
export { resolveParams, recordAt, type FieldAt, type Resolved } from './catalogPath';
export { PRECOMPILED_VALIDATORS_FILE, precompiledValidatorsSource } from './precompiled';
