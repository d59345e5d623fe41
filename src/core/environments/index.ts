export * from './types';
export * from './builtin';
export * from './apiKey';
export * from './load';
export * from './where';
export * from './keyDestination';
export * from './edit';
