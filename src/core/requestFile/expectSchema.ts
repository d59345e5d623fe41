/**
 * JSON Schema (draft-07, plus VS Code's annotation keywords) for the runner's parts of the
 * formats: `expect` and `capture` in request files, and `collection.json`. The request-file
 * schema generator (src/core/generate) embeds these; the runner itself does not validate with
 * them (compileExpect reads the same rules with line:column locations), so the two are kept in
 * step by test/unit/expectSchema.test.ts.
 *
 * Given a shape, the reply paths its result offers are listed as `expect.reply` properties and
 * `capture` examples, so the editor completes `Result.ServiceLevels[0].Code` and the like.
 */
import { getRecord } from '../catalog';
import type { FieldDef, OperationDef, RecordDef } from '../catalog/types';
import { MAX_RETRY_ATTEMPTS, MAX_RETRY_DELAY_MS, RETRY_DEFAULTS } from './retry';

export type JsonSchema = { [keyword: string]: unknown };

export const COLLECTION_FILE = 'collection.json';

const VARIABLE = '\\{\\{\\s*[A-Za-z_][A-Za-z0-9_.-]*\\s*\\}\\}';
// Dates as compileExpect reads them (dates.ts): xs:dateTime, xs:date, MM/DD/YYYY.
const DATE_TEXT = '-?\\d{4,6}-\\d{2}-\\d{2}(?:T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:\\d{2})?|\\d{2}/\\d{2}/\\d{4}';
const NUMBER_TEXT = `^\\s*(?:[+-]?\\$?\\s*[+-]?(?:\\d{1,3}(?:,\\d{3})+|\\d*)(?:\\.\\d*)?(?:[eE][+-]?\\d+)?|${DATE_TEXT}|${VARIABLE})\\s*$`;
const PATH = '^(?:\\$|[^.[\\]\\s]+(?:\\[(?:-?\\d+|\\*|\\?)\\])*(?:\\.[^.[\\]\\s]+(?:\\[(?:-?\\d+|\\*|\\?)\\])*)*)$';
const CAPTURE_PATH = '^[^.[\\]\\s]+(?:\\[-?\\d+\\])*(?:\\.[^.[\\]\\s]+(?:\\[-?\\d+\\])*)*$';

const regex = (what: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  description: `${what} (a JavaScript regular expression, unanchored: use ^ and $ to anchor).`,
});

const operand: JsonSchema = {
  type: ['number', 'string'],
  pattern: NUMBER_TEXT,
  patternErrorMessage:
    'Expected a number, a decimal string ("0.10"), a money string ("$1,234.56"), a date ("2026-11-23", "2026-11-23T08:00:00Z", "11/23/2026") or a {{variable}}.',
  markdownDescription:
    'Compared as an exact decimal: `"0.10"` equals `0.1`; money strings are read after dropping `$` and thousands commas. A date (`"2026-11-23"`, `"2026-11-23T08:00:00Z"`, `"11/23/2026"`) compares with a date field as a date.',
};

function comparisons(item: JsonSchema, what: string): JsonSchema {
  const ops: JsonSchema = {
    equals: { ...item, markdownDescription: `${what} equals this.` },
    lt: { ...item, markdownDescription: `${what} is less than this.` },
    lte: { ...item, markdownDescription: `${what} is at most this.` },
    gt: { ...item, markdownDescription: `${what} is greater than this.` },
    gte: { ...item, markdownDescription: `${what} is at least this.` },
  };
  return { type: 'object', properties: ops, additionalProperties: false, minProperties: 1 };
}

const countSpec = (what: string): JsonSchema => ({
  anyOf: [{ type: 'integer', minimum: 0 }, comparisons({ type: 'integer', minimum: 0 }, what)],
  markdownDescription: `${what}: a number (exactly) or comparisons such as \`{ "gte": 1 }\`.`,
  defaultSnippets: [{ label: 'at least', body: { gte: '^${1:1}' } }],
});

const assertionObject: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    equals: {
      markdownDescription:
        'The value equals this. Numbers compare as exact decimals (`"0.10"` equals `0.1`, `"$1,234.56"` equals `1234.56`); two strings compare as text (PRO `"056391174"` is not `"56391174"`), except in a field the catalog types as a number or a date, which compares as one. A number for a field the catalog types as a string is refused: write the text (`"056391174"`). Records compare field by field, lists item by item. `{{variables}}` are filled in; one that is empty is an error unless `allowEmpty` is true.',
    },
    // No minLength here: an empty pattern is allowed beside "allowEmpty": true (below).
    matches: {
      type: 'string',
      markdownDescription:
        'The value, as text, matches this regular expression (unanchored; JavaScript syntax without lookaround or backreferences: patterns run on a linear-time engine). Example: `"^\\\\$[0-9,]+\\\\.\\\\d{2}$"`. An empty pattern (or one a `{{variable}}` empties) checks nothing and is an error unless `allowEmpty` is true.',
    },
    exists: { type: 'boolean', markdownDescription: '`true`: the element is there and not nil. `false`: same as `absent: true`.' },
    absent: { type: 'boolean', markdownDescription: '`true`: the element is missing or nil (xsi:nil). `false`: same as `exists: true`.' },
    lt: { ...operand, markdownDescription: `The value is a number less than this. ${String(operand.markdownDescription)}` },
    lte: { ...operand, markdownDescription: `The value is a number at most this. ${String(operand.markdownDescription)}` },
    gt: { ...operand, markdownDescription: `The value is a number greater than this. ${String(operand.markdownDescription)}` },
    gte: { ...operand, markdownDescription: `The value is a number at least this. ${String(operand.markdownDescription)}` },
    count: countSpec('How many items the list has (absent: 0; a single element: 1)'),
    allowEmpty: {
      type: 'boolean',
      markdownDescription:
        '`true`: an empty `matches` pattern, or a `{{variable}}` of these assertions that is empty, is meant. Without it either is an error (`carrier run` exits 2 where the value is known before the run; a value captured during the run fails the test).',
    },
  },
  // Beside "allowEmpty": true alone may a pattern be empty.
  if: { not: { required: ['allowEmpty'], properties: { allowEmpty: { const: true } } } },
  then: { properties: { matches: { type: 'string', minLength: 1 } } },
  defaultSnippets: [
    { label: 'equals', body: { equals: '$1' } },
    { label: 'matches', body: { matches: '^${1:pattern}$' } },
    { label: 'exists', body: { exists: true } },
    { label: 'count at least', body: { count: { gte: '^${1:1}' } } },
  ],
};

const assertion: JsonSchema = {
  anyOf: [{ type: ['string', 'number', 'boolean', 'null', 'array'], markdownDescription: 'Shorthand for `{ "equals": … }`.' }, assertionObject],
};

const PATH_HELP = [
  'A path into the parsed reply: element names joined by `.`, list items by index.',
  '- `Result.ServiceLevels[0].Code`: item 0; `[-1]` is the last item.',
  '- `Result.Charges[*].Amount`: **every** item must satisfy every assertion of the object, and there must be at least one item.',
  '- `Result.ServiceLevels[?].Code`: **some** item must satisfy every assertion of the object (one item, all of them).',
  '- `$`: the whole reply.',
].join('\n');

/** Leaf and list paths of a shape's result, for completion: `[0]` on lists, capped in depth. */
export function replyPaths(shape: OperationDef, maxDepth = 5, max = 150): string[] {
  const out: string[] = [];
  const walk = (record: RecordDef, prefix: string, depth: number, seen: readonly string[]): void => {
    for (const field of record.fields) {
      if (out.length >= max) return;
      if (field.secret) continue;
      const path = prefix ? `${prefix}.${field.name}` : field.name;
      if (field.list) {
        out.push(path);
        if (field.record && depth < maxDepth && !seen.includes(field.record)) walkRecord(field, `${path}[0]`, depth, seen);
        else if (!field.record) out.push(`${path}[0]`);
      } else if (field.record) {
        if (depth < maxDepth && !seen.includes(field.record)) walkRecord(field, path, depth, seen);
      } else out.push(path);
    }
  };
  const walkRecord = (field: FieldDef, path: string, depth: number, seen: readonly string[]) => {
    const record = getRecord(field.record!);
    if (record.open) {
      out.push(path);
      return;
    }
    walk(record, path, depth + 1, [...seen, record.name]);
  };
  walk(getRecord(shape.result), '', 0, [shape.result]);
  return out;
}

/**
 * The `expect` object of a request file; with a shape, its reply paths are offered as keys.
 * `at` is the JSON pointer where the generator places this schema: the offered paths refer to
 * the one assertion schema there instead of repeating it (a BOL echo has a hundred paths).
 */
export function expectSchema(shape?: OperationDef, at = '#/properties/expect'): JsonSchema {
  const paths = shape ? replyPaths(shape) : [];
  const assertionRef = { $ref: `${at}/properties/reply/additionalProperties` };
  return {
    type: 'object',
    additionalProperties: false,
    markdownDescription:
      'What the reply must look like when this file runs with `carrier run` (or the Test Explorer). Unstated, a SOAP fault or a non-2xx status fails the test.',
    properties: {
      status: {
        anyOf: [
          { type: 'integer', minimum: 100, maximum: 599 },
          { type: 'array', items: { type: 'integer', minimum: 100, maximum: 599 }, minItems: 1 },
        ],
        markdownDescription: 'The HTTP status (or any of a list). Unstated: 2xx, unless a fault is expected.',
      },
      fault: {
        anyOf: [
          { type: 'boolean' },
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              code: regex('The fault code (e.g. soap:Client) or a SOAP 1.2 subcode matches this'),
              reason: regex('The fault reason (faultstring / Reason Text) matches this'),
            },
          },
        ],
        markdownDescription:
          '`false`: no SOAP fault. `true`: a SOAP fault. `{ "code": pattern, "reason": pattern }`: a fault whose code and reason match. Unstated: no fault (unless `status` names a non-2xx status).',
        defaultSnippets: [{ label: 'fault with reason', body: { code: '${1:Client}', reason: '${2:pattern}' } }],
      },
      success: {
        type: 'boolean',
        markdownDescription: '`true`: no in-body error carrier is set (WasSuccess=false, Messages, ErrorMessage, ErrResponse…). `false`: at least one is.',
      },
      messages: {
        type: 'array',
        items: regex('An in-body message matches this'),
        minItems: 1,
        markdownDescription: 'Patterns that must each match at least one in-body message (e.g. the `Messages/string` of a WasSuccess=false reply).',
      },
      maxMs: { type: 'number', exclusiveMinimum: 0, markdownDescription: 'The exchange takes at most this many milliseconds.' },
      body: {
        enum: ['xml', 'html', 'text', 'empty', 'any'],
        markdownDescription:
          'What the reply body is. Unstated (`"xml"`), an HTML page, an empty body or plain text fails the test whatever `status` says; `"html"`, `"text"` or `"empty"` expects that body (an IIS error page, the HTTP binding\'s plain-text error), `"any"` accepts every body.',
      },
      conforms: {
        type: 'boolean',
        markdownDescription:
          'Contract warnings (an element the contract does not know, elements out of order) fail this test too, as `carrier run --strict-contract` does for every test. Contract errors always fail.',
      },
      reply: {
        type: 'object',
        markdownDescription: `Assertions on the parsed reply, by path.\n\n${PATH_HELP}`,
        properties: Object.fromEntries(paths.map((p) => [p, assertionRef])),
        propertyNames: { pattern: PATH, patternErrorMessage: 'Not a reply path: names joined by ".", items as [n], [-1], [*] (every) or [?] (some).' },
        additionalProperties: assertion,
      },
      documents: {
        type: 'object',
        additionalProperties: false,
        markdownDescription: 'The documents (base64 PDFs) the reply carries.',
        properties: {
          count: countSpec('How many documents the reply carries'),
          type: { enum: ['pdf'], markdownDescription: 'Every document is a PDF.' },
          pages: countSpec('The page count of every document'),
        },
      },
    },
    defaultSnippets: [
      { label: 'success', body: { status: 200, fault: false, success: true } },
      { label: 'fault', body: { fault: { reason: '${1:pattern}' } } },
    ],
  };
}

/** The `capture` object: variable name → reply path (no [*] or [?]: a capture takes one value). */
export function captureSchema(shape?: OperationDef): JsonSchema {
  const paths = shape ? replyPaths(shape).filter((p) => !p.endsWith(']') || /\[0\]$/.test(p)) : [];
  return {
    type: 'object',
    markdownDescription:
      'Values to take from the reply as `{{variables}}` for later requests of the same run: variable name → reply path (`"bolId": "BolID"`). A path with no value fails the request.',
    propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$', patternErrorMessage: 'A variable name: letters, digits, _ . - ; starting with a letter or _.' },
    additionalProperties: {
      type: 'string',
      pattern: CAPTURE_PATH,
      patternErrorMessage: 'A reply path to one value: names joined by ".", items as [n] or [-1].',
      ...(paths.length ? { examples: paths } : {}),
    },
  };
}

/** `tags` of a request file or a collection.json: one word each, none starting with `!` (tags.ts). */
export function tagsSchema(markdownDescription: string): JsonSchema {
  return {
    type: 'array',
    uniqueItems: true,
    items: { type: 'string', pattern: '^[^\\s,!][^\\s,]*$', patternErrorMessage: 'A tag is one word: no space or comma, not starting with "!".' },
    markdownDescription,
  };
}

/** `snapshot` of a request file (docs/collections.md#snapshots); its ignore paths are checked against the catalog when the file is read. */
export function snapshotSchema(): JsonSchema {
  return {
    oneOf: [
      { type: 'boolean' },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          ignore: {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            markdownDescription:
              'Reply paths whose values the snapshot masks, as `expect.reply` writes them: `[*]` for every item (`Result.Charges[*].Amount`).',
          },
        },
      },
    ],
  };
}

/**
 * `retry` (docs/request-files.md#retry): `until` in the language of `expect` (the schema refers to
 * the file's own `expect` schema rather than repeating it); limits as src/core/requestFile/retry.ts.
 */
export function retrySchema(): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['until'],
    properties: {
      until: {
        allOf: [{ $ref: '#/properties/expect' }],
        type: 'object',
        minProperties: 1,
        markdownDescription:
          'What must hold before the waiting ends, in the language of `expect` (`status`, `fault`, `success`, `messages`, `reply`, `documents`). Until it does, the request is sent again.',
        defaultSnippets: [{ label: 'reply path equals', body: { reply: { '${1:Result.Status}': '${2:value}' } } }],
      },
      attempts: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_RETRY_ATTEMPTS,
        default: RETRY_DEFAULTS.attempts,
        markdownDescription: `The most sends, the first included (default ${RETRY_DEFAULTS.attempts}).`,
      },
      delayMs: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_RETRY_DELAY_MS,
        default: RETRY_DEFAULTS.delayMs,
        markdownDescription: `Milliseconds to wait after the first send (default ${RETRY_DEFAULTS.delayMs}).`,
      },
      backoff: {
        type: 'number',
        minimum: 1,
        maximum: 10,
        default: RETRY_DEFAULTS.backoff,
        markdownDescription: 'Each wait is the one before times this: `delayMs × backoff^(n-1)` after the n-th send (default 1: the same wait each time).',
      },
      maxDelayMs: { type: 'integer', minimum: 0, maximum: MAX_RETRY_DELAY_MS, markdownDescription: 'No wait is longer than this.' },
    },
    defaultSnippets: [{ label: 'retry until', body: { until: { reply: { '${1:Result.Status}': '${2:value}' } }, attempts: 10, delayMs: 2000 } }],
  };
}

/** `collection.json`: settings for the request files of its folder (and of its subfolders). */
export function collectionSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Carrier Workbench collection',
    type: 'object',
    additionalProperties: false,
    markdownDescription:
      'Settings for the request files of this folder when run as a collection (`carrier run <folder>`). Subfolders inherit `variables`, `environment`, `concurrency`, `data`, `strictContract` and `retries`, and may override them, and add their `tags` to those above; settings come from every folder above up to the repository root (or a `"root": true` collection), whatever folder the run starts in.',
    properties: {
      $schema: { type: 'string' },
      name: { type: 'string', markdownDescription: 'A display name (default: the folder path).' },
      description: { type: 'string' },
      root: {
        type: 'boolean',
        markdownDescription:
          'The top of a suite: collection.json files in folders above this one do not apply. Without it, settings are inherited from every folder above, up to the repository root (the folder holding `.git`).',
      },
      order: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        uniqueItems: true,
        markdownDescription:
          'File and subfolder names to run first, in this order. Entries not listed follow in natural file-name order (`2-…` before `10-…`).',
      },
      variables: {
        type: 'object',
        propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$' },
        additionalProperties: { type: ['string', 'number', 'boolean'] },
        markdownDescription: "Values for `{{variables}}` in this collection. The environment's variables and captured values take precedence.",
      },
      environment: { type: 'string', minLength: 1, markdownDescription: 'The environment to run against unless `--env` names one.' },
      concurrency: {
        type: 'integer',
        minimum: 1,
        markdownDescription:
          'How many requests of this collection may be in flight at once (`1`: one after another). Capped by `--concurrency`; requests that use a captured value still wait for the request that captures it.',
      },
      data: {
        type: 'string',
        minLength: 1,
        markdownDescription:
          "A data file, relative to this folder: a `.csv` with a header row, or a `.json` array of objects. Every request file of this collection (and of its subfolders, unless they name their own) runs once per row, the row's columns as `{{variables}}`; a test is named `file [binding] [row 3: Tampa]` (the `name` column, else the row number). `carrier run --data` takes its place.",
      },
      strictContract: {
        type: 'boolean',
        markdownDescription:
          'Contract warnings (an element the contract does not know, elements out of order) fail the tests of this collection and its subfolders, as `carrier run --strict-contract` does. Contract errors fail every test whatever this says.',
      },
      tags: tagsSchema(
        "Tags every request file of this collection and of its subfolders carries, with its own `tags`: `carrier run --tag smoke` runs the tests that have one, `--tag '!slow'` leaves them out.",
      ),
      retries: {
        type: 'integer',
        minimum: 0,
        markdownDescription:
          'How often a failed test of this collection (and of its subfolders) is run again; one that then passes is counted flaky. `carrier run --retries` takes its place. A test that uses captured values is not run again.',
      },
      keepTogether: {
        type: 'boolean',
        markdownDescription:
          "The order of this collection matters: `carrier run --shard` keeps it and its subfolders in one shard. A collection with `order` is kept together too, and so is every chain of requests that use each other's captures.",
      },
    },
  };
}
