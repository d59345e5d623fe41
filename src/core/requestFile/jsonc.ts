/**
 * JSON with comments → a value, or located syntax findings (never an exception).
 *
 * Plain JSON takes the native JSON.parse path, several times faster than jsonc-parser's scanner;
 * only a file that JSON.parse refuses (comments, trailing commas, real mistakes) is rescanned.
 * A key written twice in one object is an error finding too, though the value is still given.
 */
import { createScanner, parse, printParseErrorCode, SyntaxKind, type ParseError } from 'jsonc-parser';
import { duplicateKeyFindings, findDuplicateKeys, mayHaveDuplicateKeys, type DuplicateKeys } from './duplicateKeys';
import { MAX_JSON_DEPTH, tooDeepAt } from './depth';
import { valueShape } from './valueShape';
import { JsonSource } from './source';
import type { Finding } from './types';

export interface ParsedJson {
  /** Present when the text is JSON (comments and trailing commas allowed). */
  readonly value?: unknown;
  /** False after a syntax error; a duplicate key leaves it true (the value exists) but is an error finding. */
  readonly ok: boolean;
  readonly findings: Finding[];
  readonly source: JsonSource;
  /** Keys written twice in one object (checked only when `ok`). */
  readonly duplicateKeys?: DuplicateKeys;
}

const MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'missing colon after the property name',
  CommaExpected: 'missing comma',
  CloseBraceExpected: 'missing closing brace "}"',
  CloseBracketExpected: 'missing closing bracket "]"',
  EndOfFileExpected: 'unexpected text after the end of the JSON object',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'comment is not closed (missing "*/")',
  UnexpectedEndOfString: "string is not closed (missing '\"')",
  UnexpectedEndOfNumber: 'number is incomplete',
  InvalidUnicode: 'invalid \\u escape in a string',
  InvalidEscapeCharacter: 'invalid escape character in a string',
  InvalidCharacter: 'invalid character in a string (control characters must be escaped)',
};

export function parseJson(input: string): ParsedJson {
  // A byte-order mark is not JSON; blanking it keeps every offset where the editor has it.
  const text = input.charCodeAt(0) === 0xfeff ? ' ' + input.slice(1) : input;
  const source = new JsonSource(text);
  if (text.trim() === '') {
    return { ok: false, source, findings: [syntax(source, 0, 0, 'the file is empty: a request file is a JSON object with "operation" and "params"')] };
  }
  const tooDeep = (): ParsedJson | undefined => {
    const deep = tooDeepAt(text);
    if (deep < 0) return undefined;
    return {
      ok: false,
      source,
      findings: [
        syntax(source, deep, 1, `nested deeper than ${MAX_JSON_DEPTH} levels here; a request file is a few levels deep, so the file is not read further`),
      ],
    };
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // jsonc-parser reads one call per level: the text is measured before it may (depth.ts).
    const deep = tooDeep();
    if (deep) return deep;
    source.knownShallow();
    const parsed = parseJsonc(source);
    return parsed.ok ? withDuplicateKeys(parsed) : parsed;
  }
  const shape = valueShape(value);
  if (shape.tooDeep) return tooDeep()!;
  source.knownShallow();
  const parsed: ParsedJson = { ok: true, value, findings: [], source };
  return mayHaveDuplicateKeys(text, shape.keys) ? withDuplicateKeys(parsed) : parsed;
}

function withDuplicateKeys(parsed: ParsedJson): ParsedJson {
  const duplicateKeys = findDuplicateKeys(parsed.source.text);
  if (!duplicateKeys.duplicates.length) return parsed;
  const findings = [...parsed.findings, ...duplicateKeyFindings(parsed.source.text, parsed.source.lines, duplicateKeys)];
  return { ...parsed, findings, duplicateKeys };
}

function parseJsonc(source: JsonSource): ParsedJson {
  const errors: ParseError[] = [];
  const value = parse(source.text, errors, { allowTrailingComma: false, disallowComments: false, allowEmptyContent: false });
  const context = tokenContext(
    source.text,
    errors.map((e) => e.offset),
  );
  const findings: Finding[] = [];
  const seenLines = new Set<number>();
  const seenCommas = new Set<number>();
  for (const error of errors) {
    const code = printParseErrorCode(error.error);
    const { prev, next } = context.get(error.offset) ?? {};
    if (
      (code === 'PropertyNameExpected' || code === 'ValueExpected') &&
      prev?.kind === SyntaxKind.CommaToken &&
      (next?.kind === SyntaxKind.CloseBraceToken || next?.kind === SyntaxKind.CloseBracketToken)
    ) {
      // jsonc-parser may report one trailing comma twice (as a missing name and a missing value).
      if (!seenCommas.has(prev.offset)) findings.push({ ...syntax(source, prev.offset, 1, 'trailing comma'), severity: 'warning', code: 'trailing-comma' });
      seenCommas.add(prev.offset);
      continue;
    }
    let finding: Finding;
    if (code === 'CommaExpected' && prev) {
      // Point where the comma belongs (after the previous value), not at the next key.
      const before = next ? ` before ${clip(source.text.slice(next.offset, next.offset + next.length))}` : '';
      finding = syntax(source, prev.offset + prev.length, 0, `missing comma${before}`);
    } else {
      finding = syntax(source, error.offset, error.length, MESSAGES[code] ?? code);
    }
    // One mistake often derails the scanner for the rest of its line; report the first.
    if (seenLines.has(finding.range.start.line)) continue;
    seenLines.add(finding.range.start.line);
    findings.push(finding);
  }
  const ok = !findings.some((f) => f.severity === 'error');
  return ok ? { ok, value, findings, source } : { ok, findings, source };
}

interface Token {
  readonly kind: SyntaxKind;
  readonly offset: number;
  readonly length: number;
}

/** For each error offset, the last token that ends before it and the token at or after it. */
function tokenContext(text: string, offsets: number[]): Map<number, { prev?: Token; next?: Token }> {
  const wanted = [...new Set(offsets)].sort((a, b) => a - b);
  const out = new Map<number, { prev?: Token; next?: Token }>();
  const scanner = createScanner(text, true);
  let prev: Token | undefined;
  let i = 0;
  while (i < wanted.length) {
    const kind = scanner.scan();
    const token: Token = { kind, offset: scanner.getTokenOffset(), length: scanner.getTokenLength() };
    while (i < wanted.length && (kind === SyntaxKind.EOF || token.offset + token.length > wanted[i])) {
      out.set(wanted[i], { prev, next: kind === SyntaxKind.EOF ? undefined : token });
      i++;
    }
    if (kind === SyntaxKind.EOF) break;
    prev = token;
  }
  return out;
}

function clip(token: string): string {
  return token.length > 40 ? `${token.slice(0, 37)}…` : token;
}

function syntax(source: JsonSource, offset: number, length: number, message: string): Finding {
  return { severity: 'error', code: 'syntax', message, path: '', range: source.range(offset, length) };
}
