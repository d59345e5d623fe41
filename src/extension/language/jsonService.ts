/**
 * Completion, hovers, formatting, folding, the outline and smart selection for request files,
 * from VS Code's own JSON language service (vscode-json-languageservice) run in the extension
 * host over the generated schemas in schemas/.
 *
 * Why not the built-in JSON extension (jsonLanguageParticipants + jsonValidation)? It validates
 * every document it serves, and nothing turns that off for one language: a request file got the
 * carrier diagnostic and, seconds later, an unlabeled schema copy of it ("Property OrignPoint is
 * not allowed."), plus a second report of every syntax error. Here the same service answers
 * everything but is never asked to validate, so the carrier diagnostics (diagnostics.ts) are the
 * only ones. The schemas keep their jsonValidation-style use for other editors and tools.
 *
 * The schemas' top-level defaultSnippets (a whole request per shape) are left out for VS Code:
 * the contributed snippets (snippets/, generated with them) already offer each shape once.
 */
import * as vscode from 'vscode';
import type {
  TextDocument as LspDocument,
  CompletionItem as LspCompletionItem,
  DocumentSymbol as LspSymbol,
  JSONDocument,
  LanguageService,
  MarkedString,
  MarkupContent,
  Range as LspRange,
  SelectionRange as LspSelectionRange,
  TextEdit as LspTextEdit,
} from 'vscode-json-languageservice';
import { engine } from '../engineBundle';
import { REQUEST_LANGUAGE } from '../send/targetDocument';

const SELECTOR: vscode.DocumentSelector = { language: REQUEST_LANGUAGE };
/** What the JSON extension triggers completion on: a key's opening quote, and the value after it. */
const TRIGGERS = ['"', ':'];
const FOLDING_LIMIT = 5000;

export class RequestJsonService {
  private made: LanguageService | undefined;
  private readonly parsed = new Map<string, { version: number; doc: LspDocument; json: JSONDocument }>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly read: (uri: vscode.Uri) => PromiseLike<Uint8Array> = (uri) => vscode.workspace.fs.readFile(uri),
  ) {}

  /** Made when a request file first asks for it: the service lives in the engine bundle (engineBundle.ts). */
  private get service(): LanguageService {
    if (this.made) return this.made;
    const { getLanguageService, MarkupKind, ENTRY_SCHEMA } = engine();
    const entry = vscode.Uri.joinPath(this.extensionUri, 'schemas', ENTRY_SCHEMA).toString();
    this.made = getLanguageService({
      schemaRequestService: async (uri) => editorSchemaText(new TextDecoder().decode(await this.read(vscode.Uri.parse(uri)))),
      workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).toString() },
      clientCapabilities: {
        textDocument: {
          completion: { completionItem: { documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText], commitCharactersSupport: true } },
          hover: { contentFormat: [MarkupKind.Markdown, MarkupKind.PlainText] },
        },
      },
    });
    this.made.configure({ validate: false, allowComments: true, schemas: [{ uri: entry, fileMatch: ['*'] }] });
    return this.made;
  }

  private parse(document: vscode.TextDocument): { doc: LspDocument; json: JSONDocument } {
    const key = document.uri.toString();
    const cached = this.parsed.get(key);
    if (cached && cached.version === document.version) return cached;
    const doc = engine().TextDocument.create(key, REQUEST_LANGUAGE, document.version, document.getText());
    const entry = { version: document.version, doc, json: this.service.parseJSONDocument(doc) };
    this.parsed.set(key, entry);
    return entry;
  }

  forget(document: vscode.TextDocument): void {
    this.parsed.delete(document.uri.toString());
  }

  async complete(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionList> {
    const { doc, json } = this.parse(document);
    const list = await this.service.doComplete(doc, position, json);
    return new vscode.CompletionList(
      (list?.items ?? []).map((i) => completionItem(i, position)),
      list?.isIncomplete ?? false,
    );
  }

  async hover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const { doc, json } = this.parse(document);
    const hover = await this.service.doHover(doc, position, json);
    if (!hover) return undefined;
    const contents = (Array.isArray(hover.contents) ? hover.contents : [hover.contents]).map(markdown);
    return new vscode.Hover(contents, hover.range && range(hover.range));
  }

  format(document: vscode.TextDocument, within: vscode.Range | undefined, options: vscode.FormattingOptions): vscode.TextEdit[] {
    const { doc } = this.parse(document);
    return this.service
      .format(doc, within && { start: within.start, end: within.end }, { tabSize: options.tabSize, insertSpaces: options.insertSpaces })
      .map(textEdit);
  }

  folding(document: vscode.TextDocument): vscode.FoldingRange[] {
    const { doc } = this.parse(document);
    return this.service
      .getFoldingRanges(doc, { rangeLimit: FOLDING_LIMIT })
      .map(
        (r) =>
          new vscode.FoldingRange(
            r.startLine,
            r.endLine,
            r.kind === 'comment' ? vscode.FoldingRangeKind.Comment : r.kind === 'region' ? vscode.FoldingRangeKind.Region : undefined,
          ),
      );
  }

  symbols(document: vscode.TextDocument): vscode.DocumentSymbol[] {
    const { doc, json } = this.parse(document);
    return this.service.findDocumentSymbols2(doc, json).map(symbol);
  }

  selections(document: vscode.TextDocument, positions: readonly vscode.Position[]): vscode.SelectionRange[] {
    const { doc, json } = this.parse(document);
    return this.service.getSelectionRanges(doc, [...positions], json).map(selection);
  }
}

/** A schema as VS Code uses it: without the whole-request templates the snippets already offer. */
export function editorSchemaText(text: string): string {
  const schema = JSON.parse(text) as Record<string, unknown>;
  if (schema && typeof schema === 'object' && !Array.isArray(schema)) delete schema.defaultSnippets;
  return JSON.stringify(schema);
}

const range = (r: LspRange) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
const textEdit = (e: LspTextEdit) => new vscode.TextEdit(range(e.range), e.newText);

function markdown(content: MarkupContent | MarkedString): vscode.MarkdownString {
  if (typeof content === 'string') return new vscode.MarkdownString(content);
  if ('kind' in content)
    return content.kind === engine().MarkupKind.Markdown ? new vscode.MarkdownString(content.value) : new vscode.MarkdownString().appendText(content.value);
  return new vscode.MarkdownString().appendCodeblock(content.value, content.language);
}

/** LSP kinds count from 1, VS Code's from 0. */
function completionItem(i: LspCompletionItem, position: vscode.Position): vscode.CompletionItem {
  const item = new vscode.CompletionItem(i.label, i.kind !== undefined ? ((i.kind - 1) as vscode.CompletionItemKind) : undefined);
  if (i.detail) item.detail = i.detail;
  if (i.documentation) item.documentation = markdown(i.documentation);
  if (i.sortText) item.sortText = i.sortText;
  if (i.filterText) item.filterText = i.filterText;
  if (i.commitCharacters) item.commitCharacters = i.commitCharacters;
  const edit = i.textEdit && 'range' in i.textEdit ? i.textEdit : undefined;
  const text = edit?.newText ?? i.insertText ?? i.label;
  item.insertText = i.insertTextFormat === 2 ? new vscode.SnippetString(text) : text;
  if (edit) {
    const r = range(edit.range);
    // As the JSON extension does: typing inside a key inserts, accepting replaces the whole key.
    item.range = r.end.isAfter(position) && r.start.isBeforeOrEqual(position) ? { inserting: new vscode.Range(r.start, position), replacing: r } : r;
  }
  if (i.command) item.command = { title: i.command.title, command: i.command.command, arguments: i.command.arguments };
  return item;
}

function symbol(s: LspSymbol): vscode.DocumentSymbol {
  const out = new vscode.DocumentSymbol(s.name, s.detail ?? '', (s.kind - 1) as vscode.SymbolKind, range(s.range), range(s.selectionRange));
  out.children = (s.children ?? []).map(symbol);
  return out;
}

function selection(s: LspSelectionRange): vscode.SelectionRange {
  return new vscode.SelectionRange(range(s.range), s.parent && selection(s.parent));
}

export function registerJsonService(extensionUri: vscode.Uri): vscode.Disposable {
  const json = new RequestJsonService(extensionUri);
  return vscode.Disposable.from(
    vscode.languages.registerCompletionItemProvider(SELECTOR, { provideCompletionItems: (doc, position) => json.complete(doc, position) }, ...TRIGGERS),
    vscode.languages.registerHoverProvider(SELECTOR, { provideHover: (doc, position) => json.hover(doc, position) }),
    vscode.languages.registerDocumentFormattingEditProvider(SELECTOR, {
      provideDocumentFormattingEdits: (doc, options) => json.format(doc, undefined, options),
    }),
    vscode.languages.registerDocumentRangeFormattingEditProvider(SELECTOR, {
      provideDocumentRangeFormattingEdits: (doc, r, options) => json.format(doc, r, options),
    }),
    vscode.languages.registerFoldingRangeProvider(SELECTOR, { provideFoldingRanges: (doc) => json.folding(doc) }),
    vscode.languages.registerDocumentSymbolProvider(SELECTOR, { provideDocumentSymbols: (doc) => json.symbols(doc) }, { label: 'Request file' }),
    vscode.languages.registerSelectionRangeProvider(SELECTOR, { provideSelectionRanges: (doc, positions) => json.selections(doc, positions) }),
    vscode.workspace.onDidCloseTextDocument((doc) => json.forget(doc)),
  );
}
