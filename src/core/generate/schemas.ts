/**
 * The request-file JSON schemas, generated from the catalog: one self-contained schema per shape
 * (`shapes/<Operation>-<version>.schema.json`) and an entry schema that picks the shape by
 * `operation` + `version` with `allOf` of `if`/`then`, so a mistake in a GetRateQuote 1.0.1 file
 * is reported against the 1.0.1 rules only (a `oneOf` would report every shape's complaints).
 */
import { ALL_BINDINGS, BINDING_LABELS, getRecord, operationNames, operations, shapeLabel, shapesOf } from '../catalog';
import type { FieldDef, OperationDef, RecordDef } from '../catalog/types';
import { DEFAULT_BINDING, REQUEST_FILE_KEYS } from '../requestFile/format';
import { captureSchema, expectSchema, retrySchema, snapshotSchema, tagsSchema } from '../requestFile/expectSchema';
import { fieldDescription, shapeDescription } from './describe';
import { simpleValueSchema, type JsonSchema } from './jsonSchema';
import { sampleFile, sampleParams, TEMPLATE } from './samples';
import { defaultSnippetBody } from './snippetText';

const DRAFT = 'http://json-schema.org/draft-07/schema#';
export const ENTRY_SCHEMA = 'carrier-request.schema.json';

/** Path of a shape's schema relative to the entry schema (the entry refers to it by this). */
export function shapeSchemaPath(op: Pick<OperationDef, 'operation' | 'version'>): string {
  return `shapes/${op.operation}-${op.version}.schema.json`;
}

/** Every schema file, relative to `schemas/`: the entry first, then the shapes in catalog order. */
export function schemaFiles(): Array<{ path: string; schema: JsonSchema }> {
  return [{ path: ENTRY_SCHEMA, schema: requestSchema() }, ...operations.map((op) => ({ path: shapeSchemaPath(op), schema: shapeSchema(op) }))];
}

const key = (name: keyof typeof REQUEST_FILE_KEYS, extra: JsonSchema = {}): JsonSchema => ({
  description: stripMd(REQUEST_FILE_KEYS[name]),
  markdownDescription: REQUEST_FILE_KEYS[name],
  ...extra,
});

/** The format's own keys, with the parts that do not depend on the shape. */
function commonKeys(): Record<string, JsonSchema> {
  return {
    $schema: key('$schema', { type: 'string' }),
    environment: key('environment', { type: 'string' }),
    description: key('description', { type: 'string' }),
    expect: key('expect', expectSchema()),
    capture: key('capture', captureSchema()),
    retry: key('retry', retrySchema()),
    tags: key('tags', tagsSchema(REQUEST_FILE_KEYS.tags)),
    snapshot: key('snapshot', snapshotSchema()),
    asWritten: key('asWritten', { type: 'boolean' }),
  };
}

export function requestSchema(): JsonSchema {
  const common = commonKeys();
  const names = operationNames();
  return {
    $schema: DRAFT,
    // VS Code's JSON service takes comments as errors unless the file's schema allows them
    // (jsonLanguageParticipants' comments flag is not honoured in 1.100); request files are
    // JSON with comments.
    allowComments: true,
    title: 'Carrier Workbench request file',
    description: 'A request to the freight-carrier web service: operation, version, binding and params (JSON with comments).',
    type: 'object',
    required: ['operation', 'params'],
    properties: {
      $schema: common.$schema,
      operation: key('operation', { type: 'string', enum: names, markdownEnumDescriptions: names.map((n) => shapesOf(n)[0].description) }),
      version: key('version', { type: 'string' }),
      binding: key('binding', { enum: [...ALL_BINDINGS], default: DEFAULT_BINDING, enumDescriptions: ALL_BINDINGS.map((b) => BINDING_LABELS[b]) }),
      environment: common.environment,
      description: common.description,
      params: key('params', { type: 'object' }),
      expect: common.expect,
      capture: common.capture,
      retry: common.retry,
      tags: common.tags,
      snapshot: common.snapshot,
      asWritten: common.asWritten,
    },
    additionalProperties: false,
    allOf: [
      ...names.map((operation) => {
        const versions = shapesOf(operation).map((s) => s.version);
        return {
          if: { properties: { operation: { const: operation } }, required: ['operation'] },
          then: { properties: { version: { enum: versions } }, ...(versions.length > 1 ? { required: ['version'] } : {}) },
        };
      }),
      ...operations.map((op) => ({
        if: {
          properties: { operation: { const: op.operation }, version: exactly(op.version) },
          required: shapesOf(op.operation).length > 1 ? ['operation', 'version'] : ['operation'],
        },
        then: { $ref: shapeSchemaPath(op) },
      })),
    ],
    defaultSnippets: operations.map((op) => ({
      label: shapeLabel(op),
      description: op.description,
      body: defaultSnippetBody(sampleFile(op, undefined, TEMPLATE)),
    })),
  };
}

/**
 * A string equal to `value`, said without `const` or `enum`: the editor's JSON service proposes
 * the constants of every `if` it meets, so a `const` here offered every operation's versions in
 * every file, the same names again and again. The operation's own versions come from its `then`.
 */
function exactly(value: string): JsonSchema {
  return { type: 'string', pattern: `^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` };
}

export function shapeSchema(op: OperationDef): JsonSchema {
  const definitions: Record<string, JsonSchema> = {
    params: {
      type: 'object',
      description: `The parameters of ${shapeLabel(op)}, by name.`,
      properties: fieldProperties(op.parameters),
      additionalProperties: false,
      defaultSnippets: [{ label: `${shapeLabel(op)} params`, body: defaultSnippetBody(sampleParams(op)) }],
    },
  };
  for (const record of reachableRecords(op.parameters)) definitions[record.name] = recordSchema(record);
  const common = commonKeys();
  return {
    $schema: DRAFT,
    title: `${shapeLabel(op)} request file`,
    description: shapeDescription(op),
    type: 'object',
    required: ['operation', 'params'],
    properties: {
      $schema: common.$schema,
      operation: key('operation', { const: op.operation }),
      version: key('version', { const: op.version }),
      binding: key('binding', {
        enum: [...op.bindings],
        default: op.bindings.includes(DEFAULT_BINDING) ? DEFAULT_BINDING : op.bindings[0],
        enumDescriptions: op.bindings.map((b) => BINDING_LABELS[b]),
      }),
      environment: common.environment,
      description: common.description,
      params: { $ref: '#/definitions/params' },
      expect: key('expect', expectSchema(op)),
      capture: key('capture', captureSchema(op)),
      retry: common.retry,
      tags: common.tags,
      snapshot: common.snapshot,
      asWritten: common.asWritten,
    },
    additionalProperties: false,
    defaultSnippets: [{ label: shapeLabel(op), description: op.description, body: defaultSnippetBody(sampleFile(op, undefined, TEMPLATE)) }],
    definitions,
  };
}

function fieldProperties(fields: readonly FieldDef[]): Record<string, JsonSchema> {
  return Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)]));
}

function fieldSchema(field: FieldDef): JsonSchema {
  const text = fieldDescription(field);
  if (field.list) {
    const items = field.type === 'record' ? { $ref: `#/definitions/${field.record}` } : simpleValueSchema(field);
    return { ...text, type: 'array', items };
  }
  if (field.type === 'record') return { ...text, $ref: `#/definitions/${field.record}` };
  return { ...text, ...simpleValueSchema(field) };
}

function recordSchema(record: RecordDef): JsonSchema {
  const doc = record.doc ? { description: record.doc } : {};
  if (record.open) return { ...doc, type: 'object' };
  return { ...doc, type: 'object', properties: fieldProperties(record.fields), additionalProperties: false };
}

/** The records a shape's parameters use, in first-use order. */
function reachableRecords(fields: readonly FieldDef[]): RecordDef[] {
  const seen = new Map<string, RecordDef>();
  const visit = (fs: readonly FieldDef[]) => {
    for (const f of fs) {
      if (!f.record || seen.has(f.record)) continue;
      const record = getRecord(f.record);
      seen.set(record.name, record);
      visit(record.fields);
    }
  };
  visit(fields);
  return [...seen.values()];
}

function stripMd(text: string): string {
  return text.replace(/`/g, '');
}
