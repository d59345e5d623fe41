/** Request-file validation: ajv on the generated schemas, plus the catalog's own rules. */
export { validateRequestText, hasErrors, sendableRequest, type ValidationResult } from './validate';
export { formatFinding, oneBased } from './format';
export { paramsValidator, requestFileValidator } from './schemaValidator';
export { resolveParams, recordAt, type FieldAt, type Resolved } from './catalogPath';
