/**
 * Core's browser-safe entry, for the results panel (src/webview, bundled for the browser): the
 * exchange it renders, the one verdict on it, the catalog's types, labels and lookups, the
 * spelling of paths and XML pretty-printing. All of it is data and functions without Node modules; the
 * webview's tsconfig (no Node types) and eslint.config.mjs keep it that way. The Node rooms get
 * the same names from ./index.
 */
export type * from './exchange';
export * from './catalog/types';
export * from './path';
export * from './verdict';
export { CONTRACT_CODES, type ContractCodeInfo } from './contractCodes';
export { findingLine, findingPath, findingText } from './findingText';
export { documentLine } from './documentLine';
export { terminalSafe } from './terminalText';
export * from './xml/pretty';
// The Summary's views find a reply's fields by the records that hold them.
export { findShape, getRecord } from './catalog';
