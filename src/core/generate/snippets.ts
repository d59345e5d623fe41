/**
 * VS Code snippets for new request files: one per shape, from the same samples as the schema.
 * Each has one prefix, so the completion list offers every operation and version once: the
 * operation's name where it has one version, "Operation version" where it has several (typing
 * the name still finds them all).
 */
import { operations, shapeLabel, shapesOf } from '../catalog';
import { sampleFile, TEMPLATE } from './samples';
import { snippetLines } from './snippetText';

export const SNIPPETS_FILE = 'snippets/carrier-request.code-snippets.json';

export interface SnippetDef {
  readonly prefix: string[];
  readonly description: string;
  readonly body: string[];
}

export function snippets(): Record<string, SnippetDef> {
  const out: Record<string, SnippetDef> = {};
  for (const op of operations) {
    const label = shapeLabel(op);
    const several = shapesOf(op.operation).length > 1;
    out[label] = {
      prefix: [several ? label : op.operation],
      description: `${op.description} (${several ? `version ${op.version}; ` : ''}${op.bindings.join(', ')})`,
      body: snippetLines(sampleFile(op, undefined, TEMPLATE)),
    };
  }
  return out;
}
