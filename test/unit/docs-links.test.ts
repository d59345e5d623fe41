/**
 * The manual holds together: every relative link and image in README.md and docs/*.md names a
 * file of the repository, and every `#anchor` names a heading of its page as GitHub spells
 * heading anchors. Code, tests, scripts and benchmarks cite the manual, never a document outside
 * the repository (docs/architecture.md#citing-rules-and-facts), and the `docs/<page>.md#anchor`
 * they cite exists.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const THIS_FILE = path.relative(ROOT, __filename).split(path.sep).join('/');

/** Names of documents that live outside this repository. */
const OUTSIDE_DOCUMENT = /service-facts|interface\.md|shared\/reference/i;
/** `docs/wire.md#transport-rule-7` and the like, as code and tests cite the manual. */
const DOCS_CITATION = /\bdocs\/([\w.-]+\.md)(#[\w-]+)?/g;
const SOURCE_ROOTS = ['src', 'test', 'scripts', 'bench'];
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|json|jsonc|md|html|css|ya?ml|sh|txt)$/;

/**
 * The anchor GitHub gives a heading: the rendered text lower-cased, everything but letters,
 * digits, marks, `_`, `-` and spaces dropped, each space a `-` (github-slugger's rules).
 */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/`([^`]*)`/g, '$1') // code spans: their content
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/(\*\*|__|\*|~~)(?=\S)([\s\S]*?\S)\1/g, '$2') // emphasis
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { line: string; n: number }[] {
  const out: { line: string; n: number }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, i) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === undefined) fence = m[1][0].repeat(m[1].length);
      else if (m[1].startsWith(fence)) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line, n: i + 1 });
  });
  return out;
}

/** Every anchor a Markdown page offers: its headings' slugs (duplicates numbered) and HTML ids. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(text)) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = githubSlug(h[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count ? `${base}-${count}` : base);
    }
    for (const a of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(a[1]);
  }
  return anchors;
}

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** Relative link and image targets of a Markdown page, code spans and blocks left out. */
function linksOf(file: string): Link[] {
  const links: Link[] = [];
  for (const { line, n } of proseLines(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
    const prose = line.replace(/(`+)[\s\S]*?\1/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ file, line: n, target: m[1] });
    const ref = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/.exec(prose);
    if (ref) links.push({ file, line: n, target: ref[1] });
  }
  return links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) anchorCache.set(file, (anchors = anchorsOf(fs.readFileSync(file, 'utf8'))));
  return anchors;
}

/** Why `target` (relative to `from`'s folder) does not resolve, or undefined when it does. */
function brokenTarget(from: string, target: string): string | undefined {
  const hash = target.indexOf('#');
  const rawPath = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const file = rawPath ? path.resolve(path.dirname(path.join(ROOT, from)), decodeURIComponent(rawPath)) : path.join(ROOT, from);
  if (!file.startsWith(ROOT + path.sep) && file !== ROOT) return 'points outside the repository';
  if (!fs.existsSync(file)) return `${path.relative(ROOT, file)} does not exist`;
  if (anchor === undefined || !file.endsWith('.md')) return undefined;
  if (!anchorsOfFile(file).has(anchor)) return `${path.relative(ROOT, file)} has no heading with the anchor #${anchor}`;
  return undefined;
}

function markdownPages(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(rel);
      } else if (entry.isFile() && TEXT_FILE.test(entry.name) && rel !== THIS_FILE) {
        out.push(rel);
      }
    }
  };
  for (const root of SOURCE_ROOTS) walk(root);
  return out;
}

describe('docs: links, anchors and citations', () => {
  it('spells heading anchors as GitHub does', () => {
    assert.equal(githubSlug('Development: npm start, the VSIX and the tests'), 'development-npm-start-the-vsix-and-the-tests');
    assert.equal(githubSlug('`carrier envelope` and `carrier send`'), 'carrier-envelope-and-carrier-send');
    assert.equal(githubSlug('Transport rule 7'), 'transport-rule-7');
    assert.equal(githubSlug('Errors, limits and versions'), 'errors-limits-and-versions');
    assert.equal(githubSlug("The service's **own** [names](x.md) — A/B"), 'the-services-own-names--ab');
    assert.equal(githubSlug('snake_case & Ünïcode'), 'snake_case--ünïcode');
    assert.deepEqual([...anchorsOf('# Run\n## Run\n```\n# not a heading\n```\n## Run ##\n<a id="here"></a>\n')], ['run', 'run-1', 'run-2', 'here']);
  });

  it('README.md is the product page: under 10 KB, the manual in docs/', () => {
    const size = fs.statSync(path.join(ROOT, 'README.md')).size;
    assert.ok(size < 10_000, `README.md is ${size} bytes`);
  });

  it('has the pages README.md links to', () => {
    for (const page of ['request-files', 'environments', 'wire', 'carrier-facts', 'architecture', 'development', 'benchmarks']) {
      assert.ok(fs.existsSync(path.join(ROOT, 'docs', `${page}.md`)), `docs/${page}.md`);
    }
  });

  for (const page of markdownPages()) {
    it(`${page}: every relative link and anchor resolves`, () => {
      const broken = linksOf(page)
        .map((l) => ({ ...l, why: brokenTarget(l.file, l.target) }))
        .filter((l) => l.why)
        .map((l) => `${l.file}:${l.line}: ${l.target} — ${l.why}`);
      assert.deepEqual(broken, []);
    });
  }

  it('code, tests, scripts and benchmarks cite no document outside the repository', () => {
    const offending: string[] = [];
    for (const file of sourceFiles()) {
      fs.readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (OUTSIDE_DOCUMENT.test(line)) offending.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
        });
    }
    assert.deepEqual(offending, [], 'cite docs/wire.md or docs/carrier-facts.md by their anchors instead');
  });

  it('every docs/<page>.md#anchor cited in code, tests, scripts and benchmarks exists', () => {
    const broken: string[] = [];
    for (const file of sourceFiles()) {
      fs.readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(DOCS_CITATION)) {
            const why = brokenTarget('README.md', `docs/${m[1]}${m[2] ?? ''}`);
            if (why) broken.push(`${file}:${i + 1}: docs/${m[1]}${m[2] ?? ''} — ${why}`);
          }
        });
    }
    assert.deepEqual(broken, []);
  });
});
