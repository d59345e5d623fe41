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
  const total = countNodes(data, COUNT_CAP);
  const rows = new TreeRows(data, options);
  rows.openFirstLevels();
  // Search highlights and scrolls but leaves focus in the search box, so typing goes on.
  const search = searchBar((segments) => rows.highlight(segments), data);
  const element = h(
    'div',
    { className: 'tree-view' },
    search,
    h(
      'p',
      { className: 'muted hint' },
      `${total.capped ? `over ${total.count.toLocaleString()}` : total.count.toLocaleString()} nodes · arrows move, Enter expands, C copies the value, P the path`,
    ),
    rows.tree,
  );
  return {
    element,
    stats: () => ({ totalNodes: total.count, renderedNodes: rows.renderedNodes, capped: total.capped }),
    reveal: (path) => rows.reveal(parsePath(path)),
  };
}

/**
 * The tree's rows: built on demand (a row when its parent expands, wide lists a slice at a time),
 * expanded and collapsed, moved through with the keyboard (one Tab stop, roving tabindex) and
 * revealed along a path.
 */
class TreeRows {
  readonly tree: HTMLElement;
  renderedNodes = 0;
  private readonly documents: Map<string, TreeDocument>;
  private readonly info = new WeakMap<HTMLElement, NodeInfo>();
  /** The invisible root holds the top-level rows the same way any expanded row holds its children. */
  private readonly root: NodeInfo;
  private focused: HTMLElement | undefined;

  constructor(
    data: unknown,
    private readonly options: TreeOptions,
  ) {
    this.documents = new Map((options.documents ?? []).map((d) => [d.path, d]));
    this.tree = h('div', { className: 'tree', role: 'tree', attrs: { 'aria-label': 'Parsed reply' }, on: { keydown: (e) => this.onKey(e) } });
    this.root = { value: data, segments: [], level: 0, keys: childKeys(data), row: this.tree, group: this.tree, rendered: 0, childRows: new Map() };
  }

  // ---- building ----

  private makeRow(parent: NodeInfo, key: Segment): HTMLElement {
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
    const line = h(
      'div',
      {
        className: 'row-line',
        on: {
          click: (e) => {
            if (!(e.target as HTMLElement).closest('button')) {
              this.focusRow(row);
              this.toggle(row);
            }
          },
        },
      },
      h('span', { className: `twisty codicon ${branch && keys.length > 0 ? 'codicon-chevron-right' : 'codicon-blank'}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { className: typeof key === 'number' ? 'k k-index' : 'k' }, typeof key === 'number' ? `[${key}]` : key),
      h('span', { className: 'punct' }, ': '),
      this.documents.size > 0 && this.documents.has(formatPath(segments))
        ? documentPreview(this.documents.get(formatPath(segments))!, this.options.onDocument)
        : valuePreview(value, keys.length),
      h(
        'span',
        { className: 'row-actions' },
        button('Copy path', 'symbol-namespace', () => copy(formatPath(segments), 'path'), { iconOnly: true, title: 'Copy path (P)' }),
        button('Copy value', 'copy', () => copy(valueText(value), 'value'), { iconOnly: true, title: 'Copy value (C)' }),
      ),
    );
    line.style.setProperty('--level', String(indentOf(level)));
    row.appendChild(line);
    this.info.set(row, { value, segments, level, keys, row, rendered: 0, childRows: new Map() });
    this.renderedNodes++;
    return row;
  }

  private renderSlice(node: NodeInfo): void {
    const group = node.group!;
    const end = Math.min(node.keys.length, node.rendered + SLICE);
    const frag = document.createDocumentFragment();
    for (let i = node.rendered; i < end; i++) {
      const row = this.makeRow(node, node.keys[i]);
      node.childRows.set(node.keys[i], row);
      frag.appendChild(row);
    }
    node.rendered = end;
    node.more?.remove();
    node.more = undefined;
    group.appendChild(frag);
    if (end < node.keys.length) {
      const remaining = node.keys.length - end;
      const more = h(
        'div',
        { className: 'row more', role: 'treeitem', tabIndex: -1, attrs: { 'aria-level': node.level + 1 } },
        h(
          'div',
          { className: 'row-line', on: { click: () => this.showMore(node) } },
          icon('ellipsis'),
          ` Show ${Math.min(SLICE, remaining)} more of ${remaining}`,
        ),
      );
      (more.firstChild as HTMLElement).style.setProperty('--level', String(indentOf(node.level + 1)));
      node.more = more;
      group.appendChild(more);
    }
  }

  private showMore(node: NodeInfo): void {
    const firstNew = node.rendered;
    this.renderSlice(node);
    const row = node.childRows.get(node.keys[firstNew]);
    if (row) this.focusRow(row);
  }

  /** Open the first levels: follow single-child chains (Envelope > Body > …Result), then one more. */
  openFirstLevels(): void {
    this.renderSlice(this.root);
    let chain: NodeInfo = this.root;
    for (let depth = 0; depth < 6 && chain.keys.length === 1; depth++) {
      const only = chain.childRows.get(chain.keys[0]);
      const next = only && this.info.get(only);
      if (!only || !next || next.keys.length === 0) break;
      this.expand(only);
      chain = next;
    }
    if (chain !== this.root && chain.keys.length <= 50) {
      for (const r of chain.childRows.values()) if (this.info.get(r)!.keys.length <= 50) this.expand(r);
    }
    const first = this.tree.querySelector<HTMLElement>('[role="treeitem"]');
    if (first) this.setTabStop(first);
  }

  // ---- expanding ----

  private expand(row: HTMLElement): void {
    const node = this.info.get(row);
    if (!node || node.keys.length === 0 || row.getAttribute('aria-expanded') === 'true') return;
    if (!node.group) {
      node.group = h('div', { role: 'group' });
      row.appendChild(node.group);
      this.renderSlice(node);
    }
    node.group.hidden = false;
    row.setAttribute('aria-expanded', 'true');
    row.querySelector(':scope > .row-line > .twisty')?.classList.replace('codicon-chevron-right', 'codicon-chevron-down');
  }

  private collapse(row: HTMLElement): void {
    const node = this.info.get(row);
    if (!node?.group || row.getAttribute('aria-expanded') !== 'true') return;
    node.group.hidden = true;
    row.setAttribute('aria-expanded', 'false');
    row.querySelector(':scope > .row-line > .twisty')?.classList.replace('codicon-chevron-down', 'codicon-chevron-right');
  }

  private toggle(row: HTMLElement): void {
    if (row.classList.contains('more')) {
      const parent = this.parentNode(row);
      if (parent) this.showMore(parent);
      return;
    }
    if (row.getAttribute('aria-expanded') === 'true') this.collapse(row);
    else this.expand(row);
  }

  private parentNode(row: HTMLElement): NodeInfo | undefined {
    const parentRow = row.parentElement?.closest<HTMLElement>('[role="treeitem"]');
    return parentRow ? this.info.get(parentRow) : this.root;
  }

  // ---- focus and keys ----

  /** Makes `row` the one Tab stop of the tree (roving tabindex). */
  private setTabStop(row: HTMLElement): void {
    if (this.focused && this.focused !== row) this.focused.tabIndex = -1;
    this.focused = row;
    row.tabIndex = 0;
  }

  private focusRow(row: HTMLElement): void {
    this.setTabStop(row);
    row.focus({ preventScroll: true });
    row.scrollIntoView({ block: 'nearest' });
  }

  /** Rows in display order; a stack of its own, as a reply's open content can be expanded a thousand levels down. */
  private visibleRows(): HTMLElement[] {
    const out: HTMLElement[] = [];
    const stack: HTMLElement[] = [];
    const pushChildren = (group: HTMLElement) => {
      for (let c = group.lastElementChild as HTMLElement | null; c; c = c.previousElementSibling as HTMLElement | null) {
        if (c.getAttribute('role') === 'treeitem') stack.push(c);
      }
    };
    pushChildren(this.tree);
    while (stack.length) {
      const row = stack.pop()!;
      out.push(row);
      const g = this.info.get(row)?.group;
      if (g && !g.hidden) pushChildren(g);
    }
    return out;
  }

  private onKey(e: KeyboardEvent): void {
    const row = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    if (!row || e.altKey || e.ctrlKey || e.metaKey) return;
    const node = this.info.get(row);
    const move = (target: HTMLElement | undefined) => {
      if (target) this.focusRow(target);
    };
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp':
      case 'Home':
      case 'End': {
        const rows = this.visibleRows();
        const i = rows.indexOf(row);
        move(e.key === 'ArrowDown' ? rows[i + 1] : e.key === 'ArrowUp' ? rows[i - 1] : e.key === 'Home' ? rows[0] : rows[rows.length - 1]);
        break;
      }
      case 'ArrowRight':
        if (row.getAttribute('aria-expanded') === 'false') this.expand(row);
        else if (row.getAttribute('aria-expanded') === 'true' && node?.group?.firstElementChild) move(node.group.firstElementChild as HTMLElement);
        break;
      case 'ArrowLeft':
        if (row.getAttribute('aria-expanded') === 'true') this.collapse(row);
        else move(row.parentElement?.closest<HTMLElement>('[role="treeitem"]') ?? undefined);
        break;
      case 'Enter':
      case ' ':
        this.toggle(row);
        break;
      case 'c':
      case 'C':
        if (node) copy(valueText(node.value), 'value');
        break;
      case 'p':
      case 'P':
        if (node) copy(formatPath(node.segments), 'path');
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  // ---- revealing ----

  /** Expands along `segments`, building only what is on the way; returns the target row. */
  private revealSegments(segments: readonly Segment[]): HTMLElement | undefined {
    let node = this.root;
    let row: HTMLElement | undefined;
    for (const raw of segments) {
      // Parsers keep a single repeated element as an object; `[0]` of a non-list is the thing itself.
      if (typeof raw === 'number' && !Array.isArray(node.value)) {
        if (raw === 0) continue;
        return undefined;
      }
      const index = node.keys.indexOf(raw);
      if (index < 0) return undefined;
      if (row) this.expand(row);
      while (node.rendered <= index) this.renderSlice(node);
      row = node.childRows.get(raw);
      const next = row && this.info.get(row);
      if (!next) return undefined;
      node = next;
    }
    return row;
  }

  /** Expands the way to `segments` and focuses that row; false when there is none. */
  reveal(segments: readonly Segment[]): boolean {
    const row = this.revealSegments(segments);
    if (row) this.focusRow(row);
    return row !== undefined;
  }

  /** A search match: marked current and scrolled to, focus left where it is. */
  highlight(segments: readonly Segment[]): void {
    const row = this.revealSegments(segments);
    this.tree.querySelector('.row.current')?.classList.remove('current');
    if (row) {
      row.classList.add('current');
      this.setTabStop(row);
      row.scrollIntoView({ block: 'center' });
    }
  }
}

function searchBar(onMatch: (segments: readonly Segment[]) => void, data: unknown): HTMLElement {
  let matches: Segment[][] = [];
  let current = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = h('span', { className: 'muted search-status', attrs: { 'aria-live': 'polite' } });
  let total = '';
  const input = h('input', {
    className: 'input',
    type: 'search',
    attrs: { placeholder: 'Search keys and values', 'aria-label': 'Search the parsed reply' },
    on: {
      input: () => {
        clearTimeout(timer);
        timer = setTimeout(run, 250);
      },
      keydown: (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          step(e.shiftKey ? -1 : 1);
        }
      },
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
    // The search stops at MAX_MATCHES: every later count says there are more than it found.
    total = `${matches.length.toLocaleString('en-US')}${result.complete ? '' : '+'}`;
    current = -1;
    status.textContent = matches.length === 0 ? 'No matches' : `${total} ${matches.length === 1 && result.complete ? 'match' : 'matches'}`;
    if (matches.length > 0) step(1);
  };
  const step = (delta: number): void => {
    if (matches.length === 0) return;
    current = (current + delta + matches.length) % matches.length;
    status.textContent = `${(current + 1).toLocaleString('en-US')} of ${total}`;
    onMatch(matches[current]);
  };
  return h(
    'div',
    { className: 'search', role: 'search' },
    icon('search'),
    input,
    button('Previous match', 'arrow-up', () => step(-1), { iconOnly: true, title: 'Previous match (Shift+Enter)' }),
    button('Next match', 'arrow-down', () => step(1), { iconOnly: true, title: 'Next match (Enter)' }),
    status,
  );
}

/** What a document field holds, in words, instead of tens of kilobytes of base64. */
function documentPreview(doc: TreeDocument, onDocument: ((path: string) => void) | undefined): HTMLElement {
  const kind = doc.mediaType === 'application/pdf' ? 'PDF' : 'Binary document';
  const pages = doc.pages !== undefined ? `, ${plural(doc.pages, 'page')}` : '';
  return h(
    'span',
    { className: 'v v-document' },
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
    return h(
      'span',
      { className: value === '' ? 'v v-meta' : 'v v-string', title: value.length > 80 ? value.slice(0, 2000) : undefined },
      value === '' ? '(empty)' : shown,
    );
  }
  return h('span', { className: `v v-${typeof value}` }, String(value));
}

function valueText(value: unknown): string {
  return isBranch(value) ? JSON.stringify(value, null, 2) : String(value);
}
