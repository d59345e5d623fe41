/**
 * The parsed reply as an expandable tree (WAI-ARIA treeview). Rows are built only when their
 * parent is expanded, and wide lists in slices, so a 20 MB reply opens as fast as a small one.
 * Search walks the data, not the DOM, and builds only the rows on the way to a match.
 */
import { INDENT_LIMIT } from '../../core/view';
import { button, h, icon, linkButton } from '../dom';
import { formatBytes, plural } from '../format';
import { copy } from '../vscodeApi';
import { childAt, childKeys, countNodes, formatPath, isBranch, parsePath, searchTree, type Segment } from './treePath';

const SLICE = 200;
const PREVIEW_CHARS = 400;
const COUNT_CAP = 1_000_000;
const MAX_MATCHES = 1000;
/**
 * Rows are indented at most as deep as the pretty-printer indents (aria-level keeps the real
 * level): open content can nest a thousand levels, and past the panel's width more indentation
 * shows nothing.
 */
const indentOf = (level: number) => Math.min(level, INDENT_LIMIT);

interface NodeInfo {
  readonly value: unknown;
  readonly segments: readonly Segment[];
  readonly level: number;
  readonly keys: readonly Segment[];
  readonly row: HTMLElement;
  group?: HTMLElement;
  rendered: number;
  readonly childRows: Map<Segment, HTMLElement>;
  more?: HTMLElement;
}

export interface TreeHandle {
  readonly element: HTMLElement;
  stats(): { totalNodes: number; renderedNodes: number; capped: boolean };
  /** Expands the way to a path (as findings write it) and focuses that row. */
  reveal(path: string): boolean;
}

/** A document field of the reply: the tree names it instead of showing its base64. */
export interface TreeDocument {
  readonly path: string;
  readonly mediaType: string;
  readonly size: number;
  readonly pages?: number;
}

export interface TreeOptions {
  readonly documents?: readonly TreeDocument[];
  /** Opens the Documents tab on the document at `path`. */
  readonly onDocument?: (path: string) => void;
}

export function createTree(data: unknown, options: TreeOptions = {}): TreeHandle {
  const documents = new Map((options.documents ?? []).map((d) => [d.path, d]));
  const info = new WeakMap<HTMLElement, NodeInfo>();
  let renderedNodes = 0;
  const total = countNodes(data, COUNT_CAP);

  const tree = h('div', { className: 'tree', role: 'tree', attrs: { 'aria-label': 'Parsed reply' }, on: { keydown: (e) => onKey(e) } });
  // The invisible root holds the top-level rows the same way any expanded row holds its children.
  const root: NodeInfo = { value: data, segments: [], level: 0, keys: childKeys(data), row: tree, group: tree, rendered: 0, childRows: new Map() };

  function makeRow(parent: NodeInfo, key: Segment): HTMLElement {
    const value = childAt(parent.value, key);
    const segments = [...parent.segments, key];
    const level = parent.level + 1;
    const branch = isBranch(value);
    const keys = branch ? childKeys(value) : [];
    const row = h('div', {
      className: 'row',
      role: 'treeitem',
      tabIndex: -1,
      attrs: { 'aria-level': level, 'aria-expanded': branch && keys.length > 0 ? 'false' : undefined },
    });
    const line = h('div', { className: 'row-line', on: { click: (e) => { if (!(e.target as HTMLElement).closest('button')) { focusRow(row); toggle(row); } } } },
      h('span', { className: `twisty codicon ${branch && keys.length > 0 ? 'codicon-chevron-right' : 'codicon-blank'}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { className: typeof key === 'number' ? 'k k-index' : 'k' }, typeof key === 'number' ? `[${key}]` : key),
      h('span', { className: 'punct' }, ': '),
      documents.size > 0 && documents.has(formatPath(segments))
        ? documentPreview(documents.get(formatPath(segments))!, options.onDocument)
        : valuePreview(value, keys.length),
      h('span', { className: 'row-actions' },
        button('Copy path', 'symbol-namespace', () => copy(formatPath(segments), 'path'), { iconOnly: true, title: 'Copy path (P)' }),
        button('Copy value', 'copy', () => copy(valueText(value), 'value'), { iconOnly: true, title: 'Copy value (C)' }),
      ),
    );
    line.style.setProperty('--level', String(indentOf(level)));
    row.appendChild(line);
    info.set(row, { value, segments, level, keys, row, rendered: 0, childRows: new Map() });
    renderedNodes++;
    return row;
  }

  function renderSlice(node: NodeInfo): void {
    const group = node.group!;
    const end = Math.min(node.keys.length, node.rendered + SLICE);
    const frag = document.createDocumentFragment();
    for (let i = node.rendered; i < end; i++) {
      const row = makeRow(node, node.keys[i]);
      node.childRows.set(node.keys[i], row);
      frag.appendChild(row);
    }
    node.rendered = end;
    node.more?.remove();
    node.more = undefined;
    group.appendChild(frag);
    if (end < node.keys.length) {
      const remaining = node.keys.length - end;
      const more = h('div', { className: 'row more', role: 'treeitem', tabIndex: -1, attrs: { 'aria-level': node.level + 1 } },
        h('div', { className: 'row-line', on: { click: () => showMore(node) } }, icon('ellipsis'), ` Show ${Math.min(SLICE, remaining)} more of ${remaining}`));
      (more.firstChild as HTMLElement).style.setProperty('--level', String(indentOf(node.level + 1)));
      node.more = more;
      group.appendChild(more);
    }
  }

  function showMore(node: NodeInfo): void {
    const firstNew = node.rendered;
    renderSlice(node);
    const row = node.childRows.get(node.keys[firstNew]);
    if (row) focusRow(row);
  }

  function expand(row: HTMLElement): void {
    const node = info.get(row);
    if (!node || node.keys.length === 0 || row.getAttribute('aria-expanded') === 'true') return;
    if (!node.group) {
      node.group = h('div', { role: 'group' });
      row.appendChild(node.group);
      renderSlice(node);
    }
    node.group.hidden = false;
    row.setAttribute('aria-expanded', 'true');
    row.querySelector(':scope > .row-line > .twisty')?.classList.replace('codicon-chevron-right', 'codicon-chevron-down');
  }

  function collapse(row: HTMLElement): void {
    const node = info.get(row);
    if (!node?.group || row.getAttribute('aria-expanded') !== 'true') return;
    node.group.hidden = true;
    row.setAttribute('aria-expanded', 'false');
    row.querySelector(':scope > .row-line > .twisty')?.classList.replace('codicon-chevron-down', 'codicon-chevron-right');
  }

  function toggle(row: HTMLElement): void {
    if (row.classList.contains('more')) {
      const parent = parentNode(row);
      if (parent) showMore(parent);
      return;
    }
    if (row.getAttribute('aria-expanded') === 'true') collapse(row);
    else expand(row);
  }

  function parentNode(row: HTMLElement): NodeInfo | undefined {
    const parentRow = row.parentElement?.closest<HTMLElement>('[role="treeitem"]');
    return parentRow ? info.get(parentRow) : root;
  }

  let focused: HTMLElement | undefined;
  /** Makes `row` the one Tab stop of the tree (roving tabindex). */
  function setTabStop(row: HTMLElement): void {
    if (focused && focused !== row) focused.tabIndex = -1;
    focused = row;
    row.tabIndex = 0;
  }
  function focusRow(row: HTMLElement): void {
    setTabStop(row);
    row.focus({ preventScroll: true });
    row.scrollIntoView({ block: 'nearest' });
  }

  /** Rows in display order; a stack of its own, as a reply's open content can be expanded a thousand levels down. */
  function visibleRows(): HTMLElement[] {
    const out: HTMLElement[] = [];
    const stack: HTMLElement[] = [];
    const pushChildren = (group: HTMLElement) => {
      for (let c = group.lastElementChild as HTMLElement | null; c; c = c.previousElementSibling as HTMLElement | null) {
        if (c.getAttribute('role') === 'treeitem') stack.push(c);
      }
    };
    pushChildren(tree);
    while (stack.length) {
      const row = stack.pop()!;
      out.push(row);
      const g = info.get(row)?.group;
      if (g && !g.hidden) pushChildren(g);
    }
    return out;
  }

  function onKey(e: KeyboardEvent): void {
    const row = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    if (!row || e.altKey || e.ctrlKey || e.metaKey) return;
    const node = info.get(row);
    const move = (target: HTMLElement | undefined) => { if (target) focusRow(target); };
    switch (e.key) {
      case 'ArrowDown': case 'ArrowUp': case 'Home': case 'End': {
        const rows = visibleRows();
        const i = rows.indexOf(row);
        move(e.key === 'ArrowDown' ? rows[i + 1] : e.key === 'ArrowUp' ? rows[i - 1] : e.key === 'Home' ? rows[0] : rows[rows.length - 1]);
        break;
      }
      case 'ArrowRight':
        if (row.getAttribute('aria-expanded') === 'false') expand(row);
        else if (row.getAttribute('aria-expanded') === 'true' && node?.group?.firstElementChild) move(node.group.firstElementChild as HTMLElement);
        break;
      case 'ArrowLeft':
        if (row.getAttribute('aria-expanded') === 'true') collapse(row);
        else move(row.parentElement?.closest<HTMLElement>('[role="treeitem"]') ?? undefined);
        break;
      case 'Enter': case ' ':
        toggle(row);
        break;
      case 'c': case 'C':
        if (node) copy(valueText(node.value), 'value');
        break;
      case 'p': case 'P':
        if (node) copy(formatPath(node.segments), 'path');
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  /** Expands along `segments`, building only what is on the way; returns the target row. */
  function revealSegments(segments: readonly Segment[]): HTMLElement | undefined {
    let node = root;
    let row: HTMLElement | undefined;
    for (const raw of segments) {
      // Parsers keep a single repeated element as an object; `[0]` of a non-list is the thing itself.
      if (typeof raw === 'number' && !Array.isArray(node.value)) {
        if (raw === 0) continue;
        return undefined;
      }
      const index = node.keys.indexOf(raw);
      if (index < 0) return undefined;
      if (row) expand(row);
      while (node.rendered <= index) renderSlice(node);
      row = node.childRows.get(raw);
      const next = row && info.get(row);
      if (!next) return undefined;
      node = next;
    }
    return row;
  }

  // Open the first levels: follow single-child chains (Envelope > Body > …Result), then one more.
  renderSlice(root);
  let chain: NodeInfo = root;
  for (let depth = 0; depth < 6 && chain.keys.length === 1; depth++) {
    const only = chain.childRows.get(chain.keys[0]);
    const next = only && info.get(only);
    if (!only || !next || next.keys.length === 0) break;
    expand(only);
    chain = next;
  }
  if (chain !== root && chain.keys.length <= 50) {
    for (const r of chain.childRows.values()) if (info.get(r)!.keys.length <= 50) expand(r);
  }
  const first = tree.querySelector<HTMLElement>('[role="treeitem"]');
  if (first) setTabStop(first);

  // Search highlights and scrolls but leaves focus in the search box, so typing goes on.
  const search = searchBar((segments) => {
    const row = revealSegments(segments);
    tree.querySelector('.row.current')?.classList.remove('current');
    if (row) {
      row.classList.add('current');
      setTabStop(row);
      row.scrollIntoView({ block: 'center' });
    }
  }, data);

  const element = h('div', { className: 'tree-view' },
    search,
    h('p', { className: 'muted hint' }, `${total.capped ? `over ${total.count.toLocaleString()}` : total.count.toLocaleString()} nodes · arrows move, Enter expands, C copies the value, P the path`),
    tree,
  );

  return {
    element,
    stats: () => ({ totalNodes: total.count, renderedNodes, capped: total.capped }),
    reveal: (path) => {
      const row = revealSegments(parsePath(path));
      if (row) focusRow(row);
      return row !== undefined;
    },
  };
}

function searchBar(onMatch: (segments: readonly Segment[]) => void, data: unknown): HTMLElement {
  let matches: Segment[][] = [];
  let current = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = h('span', { className: 'muted search-status', attrs: { 'aria-live': 'polite' } });
  const input = h('input', {
    className: 'input',
    type: 'search',
    attrs: { placeholder: 'Search keys and values', 'aria-label': 'Search the parsed reply' },
    on: {
      input: () => { clearTimeout(timer); timer = setTimeout(run, 250); },
      keydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); step(e.shiftKey ? -1 : 1); } },
    },
  });
  const run = (): void => {
    const q = input.value.trim();
    if (q === '') {
      matches = [];
      current = -1;
      status.textContent = '';
      return;
    }
    const result = searchTree(data, q, MAX_MATCHES);
    matches = result.matches;
    current = -1;
    status.textContent = matches.length === 0 ? 'No matches' : `${plural(matches.length, 'match', 'matches')}${result.complete ? '' : '+'}`;
    if (matches.length > 0) step(1);
  };
  const step = (delta: number): void => {
    if (matches.length === 0) return;
    current = (current + delta + matches.length) % matches.length;
    status.textContent = `${current + 1} of ${matches.length}`;
    onMatch(matches[current]);
  };
  return h('div', { className: 'search', role: 'search' },
    icon('search'), input,
    button('Previous match', 'arrow-up', () => step(-1), { iconOnly: true, title: 'Previous match (Shift+Enter)' }),
    button('Next match', 'arrow-down', () => step(1), { iconOnly: true, title: 'Next match (Enter)' }),
    status,
  );
}

/** What a document field holds, in words, instead of tens of kilobytes of base64. */
function documentPreview(doc: TreeDocument, onDocument: ((path: string) => void) | undefined): HTMLElement {
  const kind = doc.mediaType === 'application/pdf' ? 'PDF' : 'Binary document';
  const pages = doc.pages !== undefined ? `, ${plural(doc.pages, 'page')}` : '';
  return h('span', { className: 'v v-document' },
    icon(doc.mediaType === 'application/pdf' ? 'file-pdf' : 'file-binary'),
    ` ${kind}${pages}, ${formatBytes(doc.size)} (base64) `,
    onDocument ? linkButton('Show in Documents', () => onDocument(doc.path), 'Open the Documents tab', 'doc-link') : null,
  );
}

function valuePreview(value: unknown, childCount: number): HTMLElement {
  if (Array.isArray(value)) return h('span', { className: 'v v-meta' }, `[${childCount}]`);
  if (isBranch(value)) return h('span', { className: 'v v-meta' }, `{${childCount}}`);
  if (value === null || value === undefined) return h('span', { className: 'v v-null' }, String(value));
  if (typeof value === 'string') {
    const shown = value.length > PREVIEW_CHARS ? `${value.slice(0, PREVIEW_CHARS)}… (${value.length.toLocaleString()} chars)` : value;
    return h('span', { className: value === '' ? 'v v-meta' : 'v v-string', title: value.length > 80 ? value.slice(0, 2000) : undefined }, value === '' ? '(empty)' : shown);
  }
  return h('span', { className: `v v-${typeof value}` }, String(value));
}

function valueText(value: unknown): string {
  return isBranch(value) ? JSON.stringify(value, null, 2) : String(value);
}
