/** VS Code snippets for new request files: one per shape, from the same samples as the schema. */
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
      prefix: [op.operation, label],
      description: `${op.description} (${several ? `version ${op.version}; ` : ''}${op.bindings.join(', ')})`,
      body: snippetLines(sampleFile(op, undefined, TEMPLATE)),
    };
  }
  return out;
}
