/**
 * Renders a sample as VS Code snippet syntax: as the text of a `.code-snippets` body, and as a
 * JSON schema `defaultSnippets` body. Stops are numbered in document order in both, so the two
 * forms of one sample behave the same.
 */
import { Stop, type SampleNode } from './samples';

/** `\`, `$` and `}` are the characters snippet text gives meaning to. */
const escapeText = (s: string) => s.replace(/[\\$}]/g, (c) => `\\${c}`);
const escapeChoice = (s: string) => s.replace(/[\\$},|]/g, (c) => `\\${c}`);
/** The inside of a JSON string literal, without its quotes. */
const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);

function placeholder(stop: Stop, n: number, inner: (s: string) => string): string {
  if (stop.choices && stop.choices.length > 1) return `\${${n}|${stop.choices.map((c) => escapeChoice(inner(c))).join(',')}|}`;
  return `\${${n}:${escapeText(inner(String(stop.value)))}}`;
}

const isScalar = (v: SampleNode) => v instanceof Stop || typeof v !== 'object' || v === null;

/** The snippet body as lines of JSON text with tab stops. */
export function snippetLines(sample: SampleNode): string[] {
  let n = 0;
  const render = (v: SampleNode, indent: string): string => {
    if (v instanceof Stop) {
      const text = placeholder(v, ++n, jsonInner);
      return typeof v.value === 'string' ? `"${text}"` : text;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      if (v.every(isScalar)) return `[${v.map((item) => render(item, indent)).join(', ')}]`;
      const inner = indent + '  ';
      return `[\n${v.map((item) => inner + render(item, inner)).join(',\n')}\n${indent}]`;
    }
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      if (entries.length === 0) return '{}';
      const inner = indent + '  ';
      return `{\n${entries.map(([k, item]) => `${inner}${escapeText(JSON.stringify(k))}: ${render(item as SampleNode, inner)}`).join(',\n')}\n${indent}}`;
    }
    return escapeText(JSON.stringify(v));
  };
  return render(sample, '').split('\n');
}

/**
 * The sample as a `defaultSnippets` body: strings carry their placeholders, and numbers and
 * booleans are strings starting with `^`, which VS Code inserts without quotes.
 */
export function defaultSnippetBody(sample: SampleNode): unknown {
  let n = 0;
  const convert = (v: SampleNode): unknown => {
    if (v instanceof Stop) {
      if (typeof v.value !== 'string') return `^${placeholder(v, ++n, (s) => s)}`;
      // VS Code JSON-quotes a plain string body value, which doubles every backslash and so undoes
      // the snippet escapes of `\`, `$` and `}` (as in {{run.nextBusinessDay}}): such values go
      // in raw, `^`-prefixed, already quoted.
      return /[\\$}]/.test(v.value) ? `^"${placeholder(v, ++n, jsonInner)}"` : placeholder(v, ++n, (s) => s);
    }
    if (Array.isArray(v)) return v.map(convert);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, convert(item as SampleNode)]));
    return typeof v === 'string' ? escapeText(v) : v;
  };
  return convert(sample);
}
