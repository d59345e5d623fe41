/**
 * A data row as one request file uses it. A cell that fills a whole params value
 * (`"Weight": "{{weight}}"`) takes the catalog type of that field, so `1500` goes out as the int
 * it is and `15OO` is a mistake at its cell before anything is sent; a cell inside longer text
 * (`"PO {{po}}"`) stays text. Expectations compare against the cells as written, and an empty
 * cell that empties an expectation is a mistake at that expectation (emptyValues.ts).
 */
import * as path from 'node:path';
import type { XsdType } from '../catalog/types';
import { formatPath } from '../requestFile';
import { fromXsdText, toXsdText } from '../xml/values';
import { rowName, type DataRow, type DataTable } from './data';
import { emptyExpectationProblems } from './emptyValues';
import type { LoadedFile } from './loadFile';
import type { Failure, PlannedRow } from './types';

/** Types whose values are text anyway: a cell fills them as written. */
const TEXT_TYPES: ReadonlySet<XsdType> = new Set(['string', 'base64Binary']);

function article(type: string): string {
  return /^[aeiou]/i.test(type) ? `an ${type}` : `a ${type}`;
}

/** The cell read as `type`, or why it cannot be. */
function typedCell(type: XsdType, text: string): { value: unknown } | { problem: string } {
  if (type === 'dateTime') {
    // The writer's reading: a bare date is that day's midnight, as in request files.
    try {
      return { value: toXsdText('dateTime', text, '') };
    } catch {
      return { problem: `"${text}" is not ${article(type)}` };
    }
  }
  const read = fromXsdText(type, text);
  return read.problem ? { problem: `"${text}" is not ${article(type)}` } : { value: read.value };
}

export function plannedRow(file: LoadedFile, table: DataTable, row: DataRow): { row: PlannedRow; problems: Failure[] } {
  const values: Record<string, unknown> = {};
  const texts: Record<string, string> = {};
  const problems: Failure[] = [];
  const name = rowName(row);
  for (const column of table.columns) {
    const cell = row.cells[column];
    texts[column] = cell.text;
    values[column] = cell.text;
    const fields = (file.wholeFields.get(column) ?? []).filter((f) => !TEXT_TYPES.has(f.type));
    const types = [...new Set(fields.map((f) => f.type))];
    // One value fills every place the name stands: typed only when those places agree.
    if (types.length !== 1) continue;
    const typed = typedCell(types[0], cell.text);
    if ('value' in typed) values[column] = typed.value;
    else {
      problems.push({
        kind: 'file',
        message: `data row ${row.index}${name ? ` (${name})` : ''}, column ${column}: ${typed.problem}, which ${formatPath(fields[0].path)} of ${path.basename(file.file)} needs`,
        location: cell.location,
      });
    }
  }
  // The cells as the expectations read them (engine.ts variablesFor: a row's texts, over the environment's).
  const from = (column: string) => `${path.basename(table.file)} row ${row.index}${name ? ` (${name})` : ''}, column ${column}`;
  if (file.uses.length)
    problems.push(
      ...emptyExpectationProblems(file.expect, (n) => (Object.prototype.hasOwnProperty.call(texts, n) ? { value: texts[n], from: from(n) } : undefined)),
    );
  return {
    row: { file: table.file, index: row.index, count: table.rows.length, ...(name ? { name } : {}), location: row.location, values, texts },
    problems,
  };
}
