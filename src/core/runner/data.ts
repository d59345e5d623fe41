/**
 * Data files of data-driven runs (`collection.json` `"data"`, `carrier run --data`): a CSV with a
 * header row, or a JSON array of objects. Each row becomes a set of variables, one test per row.
 *
 * CSV is read by csv-parse (quoted fields, delimiters and newlines inside quotes, `""`, a UTF-8
 * BOM, CRLF, empty cells), never split by hand; this file only checks what the library leaves to
 * its caller (a header that is a set of variable names, rows as long as the header) and turns the
 * library's byte positions into line:column, so every mistake is reported where it is written
 * before anything is sent.
 */
import type { CastingContext } from 'csv-parse/sync';
import type { CoreContext } from '../context';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { MAX_TEXT_FILE_BYTES, decodeUtf8, FileTextError, MAX_JSON_DEPTH, tooDeepAt, variableNameProblem } from '../requestFile';
import { duplicateKeyFindings, findDuplicateKeys } from '../requestFile/duplicateKeys';
import { LineIndex as ZeroBasedLines } from '../requestFile/lineIndex';
import { fromRange, LineIndex } from './locate';
import type { Failure, SourceLocation } from './types';

/**
 * csv-parse, required when a run first reads a CSV: most runs have no data file, and loading the
 * library costs a process a few milliseconds before its first request.
 */
let csv: typeof import('csv-parse/sync').parse | undefined;
function csvParser(): typeof import('csv-parse/sync').parse {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as said above
  return (csv ??= (require('csv-parse/sync') as typeof import('csv-parse/sync')).parse);
}

/** More rows than this is a mistake (or a trap) rather than a table of cases. */
export const MAX_DATA_ROWS = 100_000;
/** The column whose value names a row in test names (`[row 3: Tampa]`). */
export const NAME_COLUMN = 'name';

export interface DataCell {
  readonly text: string;
  readonly location: SourceLocation;
}

export interface DataRow {
  /** 1-based: the first row under the header is row 1. */
  readonly index: number;
  readonly cells: Readonly<Record<string, DataCell>>;
  readonly location: SourceLocation;
}

export interface DataTable {
  readonly file: string;
  readonly columns: readonly string[];
  readonly rows: readonly DataRow[];
  /** Where each column is named (the header cell, or the first row's key). */
  readonly columnLocations: Readonly<Record<string, SourceLocation>>;
}

export type DataRead = { readonly table: DataTable; readonly problems?: undefined } | { readonly table?: undefined; readonly problems: readonly Failure[] };

const fileProblem = (file: string, message: string, location?: SourceLocation): Failure => ({
  kind: 'file',
  message,
  location: location ?? { file, line: 1, column: 1, endLine: 1, endColumn: 1 },
});

/** Reads a data file by its extension: `.json` an array of objects, anything else CSV. */
export function readDataFile(context: Pick<CoreContext, 'files'>, file: string): DataRead {
  let bytes: Uint8Array;
  try {
    const read = context.files.readBounded(file, MAX_TEXT_FILE_BYTES);
    if (read.refused === 'not-a-file') return { problems: [fileProblem(file, `data file ${file} is not a regular file`)] };
    if (read.refused === 'too-large')
      return { problems: [fileProblem(file, `data file ${file} is ${read.size} bytes; a data file may be at most ${MAX_TEXT_FILE_BYTES} bytes`)] };
    bytes = read.bytes;
  } catch (e) {
    return { problems: [fileProblem(file, `cannot read data file ${file}: ${(e as Error).message}`)] };
  }
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch (e) {
    const at = e instanceof FileTextError && e.line !== undefined ? { line: e.line, column: e.column ?? 1 } : { line: 1, column: 1 };
    return { problems: [fileProblem(file, `data file ${(e as Error).message}`, { file, ...at, endLine: at.line, endColumn: at.column })] };
  }
  return /\.json$/i.test(file) ? parseJsonData(text, file) : parseCsvData(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), file);
}

/** Byte offsets (what csv-parse counts) to character offsets of the text after the BOM, in one forward pass. */
class ByteCursor {
  private byte: number;
  private char = 0;
  constructor(
    private readonly bytes: Buffer,
    private readonly bom: number,
  ) {
    this.byte = bom;
  }
  charAt(byte: number): number {
    const target = Math.max(this.bom, Math.min(byte, this.bytes.length));
    if (target < this.byte) {
      // Never expected (positions only grow), but a wrong location is better than a wrong count.
      this.byte = this.bom;
      this.char = 0;
    }
    this.char += this.bytes.toString('utf8', this.byte, target).length;
    this.byte = target;
    return this.char;
  }
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

export function parseCsvData(bytes: Buffer, file: string): DataRead {
  const bom = UTF8_BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
  const text = bytes.toString('utf8', bom);
  const lines = new LineIndex(file, text);
  const cursor = new ByteCursor(bytes, bom);
  /** Each record's cells with their end offsets (characters), as the library reads them. */
  const records: Array<Array<{ text: string; end: number }>> = [];
  let current: Array<{ text: string; end: number }> = [];
  const problems: Failure[] = [];
  try {
    csvParser()(bytes, {
      bom: true,
      delimiter: ',',
      skip_empty_lines: true,
      // Row lengths are checked below, where the offending cell can be pointed at.
      relax_column_count: true,
      cast: (value: string, context: CastingContext) => {
        // `bytes` is where the field ends (after a closing quote): the library's own position.
        if (context.index === 0 && current.length) {
          records.push(current);
          current = [];
        }
        current.push({ text: value, end: cursor.charAt(context.bytes) });
        if (records.length + 1 > MAX_DATA_ROWS + 1) throw new TooManyRows();
        return value;
      },
    });
    if (current.length) records.push(current);
  } catch (e) {
    if (e instanceof TooManyRows) return { problems: [fileProblem(file, `data file ${file} has more than ${MAX_DATA_ROWS} rows`)] };
    const err = e as Error & { code?: string; lines?: number; index?: number; bytes?: number };
    if (!err.code) throw e;
    // The library names the line; the field it was reading starts after the last field it finished.
    const at = err.lines ?? 1;
    const last = current.length ? current : records[records.length - 1];
    const lastEnd = last?.length ? last[last.length - 1].end : 0;
    const offset = (err.index ?? 0) > 0 ? lastEnd + 1 : skipBreaks(text, lastEnd);
    const loc = lines.range(offset, 0);
    const location = loc.line === at ? loc : { file, line: at, column: 1, endLine: at, endColumn: 1 };
    return { problems: [{ kind: 'file', message: `data file: ${csvMessage(err.message)}`, location }] };
  }

  // Where each cell starts: after the previous cell's delimiter, or where its record starts.
  const located: Array<Array<DataCell>> = [];
  let previousEnd = 0;
  for (const record of records) {
    const cells: DataCell[] = [];
    let start = skipBreaks(text, previousEnd);
    for (const cell of record) {
      cells.push({ text: cell.text, location: lines.range(start, Math.max(0, cell.end - start)) });
      start = cell.end + 1;
    }
    previousEnd = record[record.length - 1].end;
    located.push(cells);
  }
  if (!located.length) return { problems: [fileProblem(file, `data file ${file} is empty: it needs a header row naming the columns`)] };

  const [header, ...body] = located;
  const columns = header.map((c) => c.text);
  problems.push(...headerProblems(header, file));
  const rows: DataRow[] = [];
  body.forEach((cells, i) => {
    const rowNumber = i + 1;
    if (cells.length !== columns.length) {
      const where = cells.length > columns.length ? cells[columns.length].location : endOf(cells[cells.length - 1].location);
      problems.push({
        kind: 'file',
        message: `data file: row ${rowNumber} has ${cells.length} cell${cells.length === 1 ? '' : 's'}, the header ${columns.length} (a comma or newline inside a cell needs the cell in "double quotes")`,
        location: where,
      });
      return;
    }
    const row: Record<string, DataCell> = {};
    columns.forEach((c, k) => {
      row[c] = cells[k];
    });
    rows.push({ index: rowNumber, cells: row, location: cells[0].location });
  });
  if (!body.length && !problems.length) problems.push({ kind: 'file', message: 'data file: a header but no rows to run', location: header[0].location });
  if (problems.length) return { problems };
  const columnLocations: Record<string, SourceLocation> = {};
  header.forEach((c) => {
    columnLocations[c.text] = c.location;
  });
  return { table: { file, columns, rows, columnLocations } };
}

class TooManyRows extends Error {}

/** Past the record delimiter(s) and the empty lines the library skipped. */
function skipBreaks(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && (text[i] === '\r' || text[i] === '\n')) i++;
  return i;
}

function endOf(loc: SourceLocation): SourceLocation {
  return { ...loc, line: loc.endLine, column: loc.endColumn };
}

/** The library's message without its own position words, which the location replaces. */
function csvMessage(message: string): string {
  return message.replace(/^([A-Za-z ]+): /, (_, kind: string) => `${kind.toLowerCase()}: `);
}

function headerProblems(header: readonly DataCell[], file: string): Failure[] {
  const problems: Failure[] = [];
  const seen = new Map<string, DataCell>();
  for (const cell of header) {
    const name = cell.text;
    if (name.trim() === '') {
      problems.push({
        kind: 'file',
        message: 'data file: a column has an empty header; every column needs a name to use as {{name}}',
        location: cell.location,
      });
      continue;
    }
    const first = seen.get(name);
    if (first) {
      problems.push({
        kind: 'file',
        message: `data file: column "${name}" is named twice (first at ${first.location.line}:${first.location.column})`,
        location: cell.location,
      });
      continue;
    }
    seen.set(name, cell);
    const nameProblem = variableNameProblem(name);
    if (nameProblem)
      problems.push({ kind: 'file', message: `data file: column ${nameProblem}; a column is used as {{${name.trim() || 'name'}}}`, location: cell.location });
  }
  if (!header.length) problems.push(fileProblem(file, 'data file has no header row'));
  return problems;
}

export function parseJsonData(text: string, file: string): DataRead {
  const lines = new LineIndex(file, text);
  const problem = (node: Node | undefined, message: string): Failure => ({
    kind: 'file',
    message: `data file: ${message}`,
    location: node ? lines.of(node) : lines.range(0, 0),
  });
  const deep = tooDeepAt(text);
  if (deep >= 0) return { problems: [{ kind: 'file', message: `data file nests deeper than ${MAX_JSON_DEPTH} levels here`, location: lines.range(deep, 1) }] };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true });
  if (errors.length || !root)
    return {
      problems: errors.map((e) => ({ kind: 'file', message: `data file: ${printParseErrorCode(e.error)}`, location: lines.range(e.offset, e.length) })),
    };
  const problems: Failure[] = [];
  const duplicates = findDuplicateKeys(text);
  if (duplicates.duplicates.length) {
    for (const f of duplicateKeyFindings(text, new ZeroBasedLines(text), duplicates))
      problems.push({ kind: 'file', message: `data file: ${f.message}`, location: fromRange(file, f.range) });
  }
  if (root.type !== 'array')
    return { problems: [problem(root, 'a JSON data file is an array of objects, one per row ([{ "name": "Tampa", "destZip": "33601" }, …])')] };
  const items = root.children ?? [];
  if (items.length > MAX_DATA_ROWS) return { problems: [problem(root, `more than ${MAX_DATA_ROWS} rows`)] };
  let columns: string[] | undefined;
  const columnLocations: Record<string, SourceLocation> = {};
  const rows: DataRow[] = [];
  items.forEach((item, i) => {
    const index = i + 1;
    if (item.type !== 'object') {
      problems.push(problem(item, `row ${index} is not an object`));
      return;
    }
    const cells: Record<string, DataCell> = {};
    const keys: string[] = [];
    for (const prop of item.children ?? []) {
      const [keyNode, value] = prop.children ?? [];
      if (!keyNode || !value) continue;
      const key = String(keyNode.value);
      const nameProblem = variableNameProblem(key);
      if (nameProblem) {
        problems.push(problem(keyNode, `${nameProblem}; a key is used as {{${key}}}`));
        continue;
      }
      keys.push(key);
      if (value.type !== 'string' && value.type !== 'number' && value.type !== 'boolean') {
        problems.push(problem(value, `row ${index}: "${key}" must be a string, number or boolean`));
        continue;
      }
      // Numbers as written (`48.00` stays `48.00`), as collection.json variables are.
      const cellText = value.type === 'string' ? (value.value as string) : text.slice(value.offset, value.offset + value.length);
      cells[key] = { text: cellText, location: lines.of(value) };
      if (!columns) columnLocations[key] = lines.of(keyNode);
    }
    if (!columns) columns = keys;
    else {
      const missing = columns.filter((c) => !keys.includes(c));
      const extra = keys.filter((k) => !columns!.includes(k));
      if (missing.length || extra.length) {
        problems.push(
          problem(
            item,
            `row ${index} has ${[missing.length ? `no ${missing.map((m) => `"${m}"`).join(', ')}` : '', extra.length ? `${extra.map((m) => `"${m}"`).join(', ')} the first row does not have` : ''].filter(Boolean).join(' and ')}; every row has the keys of the first`,
          ),
        );
        return;
      }
    }
    rows.push({ index, cells, location: lines.of(item) });
  });
  if (!items.length) problems.push(problem(root, 'the array is empty: no rows to run'));
  if (problems.length) return { problems };
  return { table: { file, columns: columns ?? [], rows, columnLocations } };
}

/** `[row 3: Tampa]` without its brackets: the name column, on one line and not too long, else the number. */
export function rowLabel(index: number, name: string | undefined): string {
  return name ? `row ${index}: ${name}` : `row ${index}`;
}

const ROW_NAME_LIMIT = 60;

/** A row's `name` cell as it can stand in a one-line test name. */
export function rowName(row: DataRow): string | undefined {
  const raw = row.cells[NAME_COLUMN]?.text;
  if (raw === undefined) return undefined;
  const one = raw.replace(/\s+/g, ' ').trim();
  if (!one) return undefined;
  return one.length > ROW_NAME_LIMIT ? `${one.slice(0, ROW_NAME_LIMIT - 1)}…` : one;
}
