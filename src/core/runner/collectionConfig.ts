/**
 * Reads a folder's `collection.json` (schema: expectSchema.ts `collectionSchema`), reporting
 * every mistake at its line:column, a key written twice included. A folder without one is a
 * collection with defaults.
 */
import * as path from 'node:path';
import type { CoreContext } from '../context';
import { parseTree, type Node, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { duplicateKeyFindings, findDuplicateKeys } from '../requestFile/duplicateKeys';
import { LineIndex as ZeroBasedLines } from '../requestFile/lineIndex';
import { MAX_JSON_DEPTH, readTextFile, tagProblem, tooDeepAt, variableNameProblem } from '../requestFile';
import { fromRange, LineIndex } from './locate';
import type { Failure } from './types';
import { variableText } from './variables';

export interface CollectionConfig {
  readonly file?: string;
  readonly name?: string;
  readonly order: readonly string[];
  readonly variables: Readonly<Record<string, string>>;
  readonly environment?: string;
  readonly concurrency?: number;
  /** `"root": true`: the settings of folders above do not apply (discover.ts). */
  readonly root?: boolean;
  /** The collection.json files that apply, outermost first (for reports). */
  readonly files: readonly string[];
  /** Where each `order` entry is written, to point at one that names nothing. */
  readonly orderLocations: ReadonlyMap<string, Failure['location']>;
  /** `"data"`: the data file (absolute) whose rows every file of the collection runs over (data.ts). */
  readonly data?: string;
  /** Where `"data"` is written, for a data file that does not read. */
  readonly dataLocation?: Failure['location'];
  /**
   * The outermost folder (this one or above) whose collection.json says its order matters
   * (`"order"` or `"keepTogether": true`): `--shard` keeps everything under it in one shard.
   */
  readonly together?: string;
  /** `"strictContract": true`: contract warnings fail its tests (docs/collections.md#contract-findings). */
  readonly strictContract?: boolean;
  /** `"tags"`: every test of the collection carries them, with the tags of the folders above. */
  readonly tags?: readonly string[];
  /** `"retries"`: how often a failed test runs again (`carrier run --retries` wins). */
  readonly retries?: number;
}

export const NO_CONFIG: CollectionConfig = { order: [], variables: {}, files: [], orderLocations: new Map() };

const KEYS = [
  '$schema',
  'name',
  'description',
  'root',
  'order',
  'variables',
  'environment',
  'concurrency',
  'data',
  'keepTogether',
  'strictContract',
  'tags',
  'retries',
];

export function readCollectionConfig(context: Pick<CoreContext, 'files'>, file: string): { config: CollectionConfig; problems: Failure[] } {
  let text: string;
  try {
    text = readTextFile(context, file);
  } catch (e) {
    return { config: NO_CONFIG, problems: [{ kind: 'file', message: `cannot read ${file}: ${(e as Error).message}` }] };
  }
  return parseCollectionConfig(text, file);
}

export function parseCollectionConfig(text: string, file: string): { config: CollectionConfig; problems: Failure[] } {
  const lines = new LineIndex(file, text);
  const problems: Failure[] = [];
  const problem = (node: Node | undefined, message: string) => problems.push({ kind: 'file', message, location: node ? lines.of(node) : lines.range(0, 0) });
  const errors: ParseError[] = [];
  // jsonc-parser's tree recurses per level: a collection.json from a repository is measured first.
  const deep = tooDeepAt(text);
  if (deep >= 0)
    return {
      config: { ...NO_CONFIG, file },
      problems: [{ kind: 'file', message: `collection.json nests deeper than ${MAX_JSON_DEPTH} levels here`, location: lines.range(deep, 1) }],
    };
  const root = parseTree(text, errors, { allowTrailingComma: true });
  for (const e of errors)
    problems.push({ kind: 'file', message: `collection.json: ${printParseErrorCode(e.error)}`, location: lines.range(e.offset, e.length) });
  if (errors.length || !root) return { config: { ...NO_CONFIG, file }, problems };
  const duplicates = findDuplicateKeys(text);
  if (duplicates.duplicates.length) {
    const zeroBased = new ZeroBasedLines(text);
    for (const f of duplicateKeyFindings(text, zeroBased, duplicates)) problems.push({ kind: 'file', message: f.message, location: fromRange(file, f.range) });
  }
  if (root.type !== 'object') {
    problem(root, 'collection.json must be a JSON object');
    return { config: { ...NO_CONFIG, file }, problems };
  }

  const config: { -readonly [K in keyof CollectionConfig]: CollectionConfig[K] } = { file, order: [], variables: {}, files: [file], orderLocations: new Map() };
  for (const prop of root.children ?? []) {
    const [keyNode, value] = prop.children ?? [];
    if (!keyNode || !value) continue;
    const key = String(keyNode.value);
    switch (key) {
      case '$schema':
      case 'description':
        if (value.type !== 'string') problem(value, `"${key}" must be a string`);
        break;
      case 'name':
        if (value.type !== 'string') problem(value, '"name" must be a string');
        else config.name = value.value as string;
        break;
      case 'root':
        if (value.type !== 'boolean') problem(value, '"root" must be true or false');
        else config.root = value.value as boolean;
        break;
      case 'environment':
        if (value.type !== 'string' || !value.value) problem(value, '"environment" must be the name of an environment');
        else config.environment = value.value as string;
        break;
      case 'concurrency':
        if (value.type !== 'number' || !Number.isInteger(value.value) || value.value < 1) problem(value, '"concurrency" must be a whole number, 1 or more');
        else config.concurrency = value.value as number;
        break;
      case 'keepTogether':
        if (value.type !== 'boolean') problem(value, '"keepTogether" must be true or false');
        else if (value.value === true) config.together = path.dirname(file);
        break;
      case 'strictContract':
        if (value.type !== 'boolean') problem(value, '"strictContract" must be true or false');
        else config.strictContract = value.value as boolean;
        break;
      case 'retries':
        if (value.type !== 'number' || !Number.isInteger(value.value) || value.value < 0) problem(value, '"retries" must be a whole number, 0 or more');
        else config.retries = value.value as number;
        break;
      case 'tags': {
        if (value.type !== 'array') {
          problem(value, '"tags" must be a list of tags: ["smoke", "bol"]');
          break;
        }
        const tags: string[] = [];
        for (const item of value.children ?? []) {
          const why = tagProblem(item.value);
          if (item.type !== 'string' || why) problem(item, why ?? 'a tag is a non-empty string');
          else if (!tags.includes(item.value as string)) tags.push(item.value as string);
        }
        config.tags = tags;
        break;
      }
      case 'data':
        if (value.type !== 'string' || !value.value) problem(value, '"data" must name a data file: a .csv with a header row, or a .json array of objects');
        else {
          config.data = path.resolve(path.dirname(file), value.value as string);
          config.dataLocation = lines.of(value);
        }
        break;
      case 'order': {
        if (value.type !== 'array') {
          problem(value, '"order" must be a list of file and folder names');
          break;
        }
        const order: string[] = [];
        const locations = new Map<string, Failure['location']>();
        for (const item of value.children ?? []) {
          if (item.type !== 'string' || !item.value) {
            problem(item, '"order" entries are file or folder names');
            continue;
          }
          if (order.includes(item.value)) {
            problem(item, `"${item.value}" is listed twice in "order"`);
            continue;
          }
          order.push(item.value);
          locations.set(item.value, lines.of(item));
        }
        config.order = order;
        config.orderLocations = locations;
        if (order.length) config.together = path.dirname(file);
        break;
      }
      case 'variables': {
        if (value.type !== 'object') {
          problem(value, '"variables" must be an object: name → value');
          break;
        }
        const vars: Record<string, string> = {};
        for (const v of value.children ?? []) {
          const [k, val] = v.children ?? [];
          if (!k || !val) continue;
          const name = String(k.value);
          const textValue = variableText(val.value);
          const nameProblem = variableNameProblem(name);
          if (nameProblem) problem(k, nameProblem);
          else if (textValue === undefined || val.type === 'object' || val.type === 'array' || val.type === 'null')
            problem(val, `variable "${name}" must be a string, number or boolean`);
          else vars[name] = val.type === 'number' ? text.slice(val.offset, val.offset + val.length) : textValue;
        }
        config.variables = vars;
        break;
      }
      default:
        problem(keyNode, `"${key}" is not a collection.json setting (settings: ${KEYS.filter((k) => k !== '$schema').join(', ')})`);
    }
  }
  return { config, problems };
}

/** A subfolder's settings on top of its parent's: variables merge, the rest is overridden. */
export function inherit(parent: CollectionConfig, child: CollectionConfig): CollectionConfig {
  return {
    ...child,
    variables: { ...parent.variables, ...child.variables },
    files: [...parent.files, ...child.files],
    environment: child.environment ?? parent.environment,
    concurrency: child.concurrency ?? parent.concurrency,
    strictContract: child.strictContract ?? parent.strictContract,
    retries: child.retries ?? parent.retries,
    ...(parent.tags?.length || child.tags?.length ? { tags: [...new Set([...(parent.tags ?? []), ...(child.tags ?? [])])] } : {}),
    ...(child.data ? {} : parent.data ? { data: parent.data, dataLocation: parent.dataLocation } : {}),
    ...((parent.together ?? child.together) ? { together: parent.together ?? child.together } : {}),
  };
}
