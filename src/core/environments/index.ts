export * from './types';
export * from './builtin';
export * from './apiKey';
export * from './load';
export * from './where';
export * from './keyDestination';
export * from './edit';
export { ENVIRONMENTS_VALIDATOR_FILE, environmentsValidatorSource } from './precompiled';
