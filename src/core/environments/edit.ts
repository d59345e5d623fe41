/**
 * Changes to `carrier.environments.json` made in place: jsonc-parser's `modify` computes the
 * smallest edit for each setting and `applyEdits` applies it, so comments, key order, blank lines
 * and the file's own indentation survive. Re-serialising the parsed value would lose all of them.
 */
import { applyEdits, modify, parseTree, findNodeAtLocation, type FormattingOptions } from 'jsonc-parser';
import type { NamespaceRole } from '../catalog';
import type { CoreContext } from '../context';
import { readTextFile } from '../requestFile/readText';

const SETTING: Readonly<Record<NamespaceRole, string>> = { service: 'serviceNamespace', data: 'dataNamespace', pickup: 'pickupNamespace' };

export interface NamespaceEdit {
  /** The text after the edit (the same text when nothing changed). */
  readonly text: string;
  /** The settings whose value changed or was added, e.g. `serviceNamespace`. */
  readonly changed: readonly string[];
}

/** The indentation the file already uses, for any line the edit has to add. */
function formattingOf(text: string): FormattingOptions {
  const indented = /^[ \t]+(?=\S)/m.exec(text)?.[0];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indented ? indented.length : 2, eol };
}

/**
 * Sets an environment's namespace settings in the text of an environments file. A setting that
 * already has the value is left alone; a missing one is added to the entry. The entry must exist.
 */
export function setEnvironmentNamespaces(text: string, environment: string, namespaces: Readonly<Partial<Record<NamespaceRole, string>>>): NamespaceEdit {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const entry = root && findNodeAtLocation(root, [environment]);
  if (!entry || entry.type !== 'object') throw new Error(`environment "${environment}" is not an entry of the environments file`);
  const formatting = formattingOf(text);
  let out = text;
  const changed: string[] = [];
  for (const role of ['service', 'data', 'pickup'] as const) {
    const value = namespaces[role];
    if (value === undefined) continue;
    const current = findNodeAtLocation(parseTree(out, [], { allowTrailingComma: true })!, [environment, SETTING[role]]);
    if (current?.value === value) continue;
    out = applyEdits(out, modify(out, [environment, SETTING[role]], value, { formattingOptions: formatting }));
    changed.push(SETTING[role]);
  }
  return { text: out, changed };
}

/** The same, on the file, written in place (links and permissions kept) only when something changed. */
export function writeEnvironmentNamespaces(
  context: Pick<CoreContext, 'files'>,
  file: string,
  environment: string,
  namespaces: Readonly<Partial<Record<NamespaceRole, string>>>,
): NamespaceEdit {
  const text = readTextFile(context, file);
  const edit = setEnvironmentNamespaces(text, environment, namespaces);
  if (edit.changed.length) context.files.writeText(file, edit.text);
  return edit;
}
