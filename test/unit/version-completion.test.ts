/**
 * The `version` completion of a request file, as VS Code's JSON language service (the one the
 * extension runs, src/extension/language/jsonService.ts) makes it from the generated schemas:
 * the operation's own versions, each once — not every operation's versions from the entry
 * schema's shape selection, which offered the same names again and again (issue 38).
 */
import * as assert from 'node:assert/strict';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { operationNames, shapesOf } from '../../src/core/catalog';
import { schemaFiles } from '../../src/core/generate';

const BASE = 'file:///schemas/';

/** The service as the extension configures it: the generated schemas, their whole-request templates left out. */
function service() {
  const files = new Map(schemaFiles().map((f) => [BASE + f.path, f.schema]));
  const ls = getLanguageService({
    schemaRequestService: async (uri) => {
      const schema = { ...(files.get(uri) as Record<string, unknown>) };
      delete schema.defaultSnippets;
      return JSON.stringify(schema);
    },
    workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).toString() },
  });
  ls.configure({ validate: false, allowComments: true, schemas: [{ uri: `${BASE}carrier-request.schema.json`, fileMatch: ['*'] }] });
  return ls;
}

async function completions(text: string): Promise<string[]> {
  const offset = text.indexOf('|');
  const doc = TextDocument.create('file:///w/quote.carrier.json', 'json', 1, text.replace('|', ''));
  const ls = service();
  const list = await ls.doComplete(doc, doc.positionAt(offset), ls.parseJSONDocument(doc));
  return (list?.items ?? []).map((i) => i.label);
}

describe('version completion', () => {
  it("offers the operation's own versions, each once, for every operation", async () => {
    for (const operation of operationNames()) {
      const versions = shapesOf(operation).map((s) => `"${s.version}"`);
      for (const text of [`{ "operation": "${operation}", "version": | }`, `{ "operation": "${operation}", "version": "|" }`]) {
        const labels = await completions(text);
        assert.deepEqual([...labels].sort(), [...versions].sort(), `${text}: ${labels.join(', ')}`);
      }
    }
  });

  it('still picks the shape by the version: params complete from that version alone', async () => {
    const older = await completions('{ "operation": "GetRateQuote", "version": "1.0.0", "params": { "request": { | } } }');
    const newer = await completions('{ "operation": "GetRateQuote", "version": "1.0.3", "params": { "request": { | } } }');
    assert.ok(older.length > 0 && newer.length > 0, `${older.join(', ')} / ${newer.join(', ')}`);
    assert.notDeepEqual(older, newer, 'the two versions ask for different fields');
  });
});
