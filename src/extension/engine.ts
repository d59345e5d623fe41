/**
 * The entry of dist/engine.js: what the extension needs only once a request file is open, a
 * request goes out, a test runs, a contract is checked or the inspector starts — core's
 * validation (with the generated validators), sending (undici), the runner (re2js, csv-parse),
 * the contract check, the traffic inspector, and VS Code's JSON language service. Activation loads
 * none of it; engineBundle.ts requires this bundle on first use, so dist/extension.js stays small
 * (bench/rows/bundle.ts).
 *
 * Whatever keeps state or is recognised by its class must come from here and only here: the
 * default environment validation follows (setDefaultEnvironment), the stored contracts it caches
 * (writeStoredContract forgets one), the connection pool, the error classes the functions here throw. The extension may still use core's light parts directly.
 */
export {
  checkContract, compileExpectations, ContractCancelled, contractCompletions, contractHover, ContractReadError, createRunBackend,
  executePlan, judgeSentFile, loadRun, RequestFileError, send, sendableRequest, setDefaultEnvironment, validateRequestText, writeStoredContract,
} from '../core';
export { recordedRequestFile, startInspector, tlsOptionsOf } from '../inspector';
export { getLanguageService, MarkupKind, TextDocument } from 'vscode-json-languageservice';
