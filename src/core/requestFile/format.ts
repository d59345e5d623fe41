/**
 * The request-file format's own keys (not the service's elements): one table that the reader,
 * the JSON schema generator and the documentation all use.
 */
import type { Binding } from '../catalog/types';

export const DEFAULT_BINDING: Binding = 'soap11';

export const REQUEST_FILE_KEYS = {
  $schema: 'The JSON schema of request files (optional; the extension associates it by file name).',
  operation: 'The operation to call, by its exact, case-sensitive name.',
  version: 'The version segment of the service path (`1.0.3`, `sandbox`). May be left out only where the operation has one version.',
  binding: 'How the request travels: `soap11` (default), `soap12`, or — only where the operation offers them — `get` and `post`.',
  environment: 'The environment to send to; when left out, the active environment.',
  description: 'What this request is for, in a few words (shown in the history and the results panel).',
  params:
    "The operation's parameters by their exact, case-sensitive names. Repeating elements are JSON arrays under the container's name. `APIKey` is normally left out: it comes from the environment's secret. Strings may use `{{variables}}`.",
  expect:
    'Assertions about the reply, judged by `carrier run` and the Test Explorer: `status`, `fault`, `success`, `messages`, `maxMs`, `reply` (by path) and `documents`.',
  capture: 'Values to capture from the reply as variables for later requests: variable name → path in the reply.',
  tags: 'Tags of this test, one word each (`"smoke"`, `"slow"`): `carrier run --tag smoke` runs the tests that have one, `--tag \'!slow\'` leaves them out; the Test Explorer filters by `@tag`. A collection.json `tags` adds to them.',
  retry:
    'Send again until a condition holds: `until` (required, in the language of `expect`), `attempts` (1–1000, default 10), `delayMs` (default 1000), `backoff` (default 1) and `maxDelayMs`. `expect` and `capture` take the last reply.',
  asWritten:
    'Send the params exactly as written, even values the contract refuses (a value out of its enumeration, not of its type, an impossible date, a missing field): a negative test of the service. Such values are then warnings, not errors, and `carrier run` sends the file.',
  snapshot:
    'Hold the reply to a kept snapshot (`__snapshots__/` beside the file, written by `carrier run --update-snapshots`): `true`, `false` (never), or `{ "ignore": ["Result.Charges[*].Amount"] }` to mask more than the dates, numbers and documents masked by default.',
} as const;

export type RequestFileKey = keyof typeof REQUEST_FILE_KEYS;
export const REQUEST_FILE_KEY_NAMES = Object.keys(REQUEST_FILE_KEYS) as RequestFileKey[];
