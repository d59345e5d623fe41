/**
 * The findings the editor shows for a request file, one problem per mistake, and the few words a
 * CodeLens has room for. The full message stays in the diagnostic; the lens only names the
 * problem and where it is.
 */
import { engine } from '../engineBundle';
import type { RequestFinding } from '../core-adapter';

/** Every diagnostic carries a code, so a finding core left without one still has a kind. */
export const FALLBACK_CODE = 'request-file';

const canonical = (path: string) => engine().formatPath(engine().parsePath(path));

/**
 * Core reports a misspelled field twice: the unknown name ("did you mean …") and the field it
 * meant as missing. Both point at the same keystroke, so while the misspelling stands the
 * missing-field warning is left out; it comes back if the name is deleted rather than fixed.
 */
export function editorFindings(findings: readonly RequestFinding[]): RequestFinding[] {
  const { formatPath, parsePath } = engine();
  const meant = new Set<string>();
  for (const f of findings) {
    if (f.code !== 'unknown-field' || !f.suggestion || !f.path) continue;
    const segments = parsePath(f.path);
    segments.pop();
    meant.add(formatPath([...segments, f.suggestion]));
  }
  if (!meant.size) return [...findings];
  return findings.filter((f) => !(f.code === 'required' && f.path && meant.has(canonical(f.path))));
}

/** Longest field name a lens shows whole; a longer one is cut, its full path is in the diagnostic. */
const SUBJECT_MAX = 20;

/** The field or key a finding is about: the last name of its path. */
function subject(f: RequestFinding): string | undefined {
  const segments = f.path ? engine().parsePath(f.path) : [];
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i];
    if (typeof s !== 'string') continue;
    const name = segments
      .slice(i)
      .map((x, n) => (n === 0 ? x : `[${x}]`))
      .join('');
    return name.length > SUBJECT_MAX ? `${name.slice(0, SUBJECT_MAX - 1)}…` : name;
  }
  return undefined;
}

/** What is wrong, in a few words: "Unknown field OrignPoint", "Syntax error, line 4". */
export function shortProblem(f: RequestFinding): string {
  const name = subject(f);
  const line = `line ${f.range.start.line + 1}`;
  const about = (words: string) => (name ? `${name}: ${words}` : `${words}, ${line}`);
  switch (f.code) {
    case 'syntax':
      return `Syntax error, ${line}`;
    case 'trailing-comma':
      return `Trailing comma, ${line}`;
    case 'duplicate-key':
      return name ? `${name} written twice` : `Key written twice, ${line}`;
    case 'not-an-object':
      return 'Not a JSON object';
    case 'operation':
      return f.path ? 'Unknown operation' : 'No operation';
    case 'version':
      return f.path === 'version' ? 'Wrong version' : 'No version';
    case 'binding':
      return 'Binding not offered';
    case 'top-level-key':
      return name ? `Unknown key ${name}` : `Unknown key, ${line}`;
    case 'top-level-type':
      return name ? `${name}: wrong type` : 'No params';
    case 'capture':
      return about('not a capture');
    case 'unknown-field':
      return name ? `Unknown field ${name}` : `Unknown field, ${line}`;
    case 'enum':
      return about('unknown value');
    case 'type':
      return about('wrong type');
    case 'required':
      return name ? `${name} missing` : `Missing field, ${line}`;
    case 'empty-list':
      return about('empty list');
    case 'format':
      return about('wrong format');
    case 'date':
      return about('not a real date');
    case 'suggested-value':
      return about('unexpected value');
    case 'api-key':
      return 'API key in the file';
    case 'expect':
      return `expect: mistake, ${line}`;
    default:
      return `Problem, ${line}`;
  }
}
