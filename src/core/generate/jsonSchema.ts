/**
 * JSON Schema (draft-07) pieces for one catalog field. The same text must satisfy two readers:
 * VS Code's JSON language service (completion, hovers, its own diagnostics) and ajv (the
 * validator), so only draft-07 keywords plus VS Code's documented extras are used.
 */
import { getEnumeration } from '../catalog';
import type { FieldDef, XsdType } from '../catalog/types';
import { VARIABLE_SOURCE } from '../requestFile/variables';

export type JsonSchema = { [keyword: string]: unknown };

/** Keywords VS Code reads that are not JSON Schema; ajv is told they are annotations. */
export const VSCODE_KEYWORDS = [
  'allowComments',
  'markdownDescription',
  'defaultSnippets',
  'patternErrorMessage',
  'errorMessage',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'doNotSuggest',
  'suggestSortText',
] as const;

export const VARIABLE_ONLY = `^${VARIABLE_SOURCE}$`;
const DECIMAL = '[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
/**
 * A calendar day, so the editor marks 30 February as carrier validate and the sandbox do: months
 * of 31, of 30, February to the 28th, and the 29th in leap years (every 4th, centuries every 400th).
 */
const COMMON_DAY = '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
const LEAP_DAY = '(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29';
const DATE = `(?:${COMMON_DAY}|${LEAP_DAY})`;
const TIME = 'T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)?';

/** How each simple type is written in a request file; a `{{variable}}` stands in for any of them. */
const LEAF: Record<XsdType, JsonSchema> = {
  string: { type: 'string' },
  base64Binary: { type: 'string' },
  int: { type: ['integer', 'string'], pattern: VARIABLE_ONLY, patternErrorMessage: 'Expected an integer (or a {{variable}}).' },
  float: { type: ['number', 'string'], pattern: VARIABLE_ONLY, patternErrorMessage: 'Expected a number (or a {{variable}}).' },
  // A decimal may be a string so that "0.10" reaches the wire exactly as written.
  decimal: {
    type: ['number', 'string'],
    pattern: `^(?:${DECIMAL}|${VARIABLE_SOURCE})$`,
    patternErrorMessage: 'Expected a number or a decimal string such as "0.10" (or a {{variable}}).',
  },
  boolean: { type: ['boolean', 'string'], pattern: VARIABLE_ONLY, patternErrorMessage: 'Expected true or false (or a {{variable}}).' },
  dateTime: {
    type: 'string',
    pattern: `^(?:${DATE}(?:${TIME})?|${VARIABLE_SOURCE})$`,
    patternErrorMessage: 'Expected an xs:dateTime such as "2026-11-23T09:00:00" or a date "2026-11-23" (or a {{variable}}).',
  },
};

/**
 * Suggestions that are all numbers written as text (freight classes) mean the field is a number
 * in spirit: `50`, `"50"` and `50.0` are accepted for `"50.0"` and checked against the list.
 */
export function hasNumericSuggestions(field: FieldDef): boolean {
  return numericSuggestions(field) !== undefined;
}

const numericCache = new WeakMap<FieldDef, ReadonlySet<number> | null>();

/** The suggestions as numbers when they all are numbers (cached: the validator asks per value). */
export function numericSuggestions(field: FieldDef): ReadonlySet<number> | undefined {
  let set = numericCache.get(field);
  if (set === undefined) {
    const s = field.suggestions;
    set = s && s.length > 0 && s.every((v) => /^\d+(\.\d+)?$/.test(v)) ? new Set(s.map(Number)) : null;
    numericCache.set(field, set);
  }
  return set ?? undefined;
}

/** The schema of one simple value of `field` (a leaf, or one item of a simple list). */
export function simpleValueSchema(field: FieldDef): JsonSchema {
  if (field.type === 'record') throw new Error(`catalog: ${field.name} is a record, not a simple value`);
  if (field.enumeration) {
    const values = getEnumeration(field.enumeration).values;
    return {
      type: 'string',
      anyOf: [{ enum: [...values] }, { pattern: VARIABLE_ONLY }],
      errorMessage: `Expected one of: ${values.join(', ')} (or a {{variable}}).`,
    };
  }
  if (field.type === 'string' && hasNumericSuggestions(field)) return { type: ['string', 'number'], examples: [...field.suggestions!] };
  const schema: JsonSchema = { ...LEAF[field.type] };
  if (field.suggestions) schema.examples = [...field.suggestions];
  return schema;
}
