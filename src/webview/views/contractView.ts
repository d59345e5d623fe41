/**
 * The Summary's Contract section: what the reply does against its contract (the catalog, or the
 * environment's stored live contract), as core's reply reader found it — the exchange's
 * `contract` findings, errors first, each with its reply path, what kind of departure it is and
 * its message (docs/collections.md#contract-findings). Nothing is checked here: the findings and
 * the verdict they make came with the exchange.
 */
import { CONTRACT_CODES, classifyExchange, type Exchange, type Finding, type VerdictKind } from '../../core/view';
import { h, icon, linkButton } from '../dom';
import { outsideText } from './outsideText';

/** Verdicts of a reply read along the catalog: the ones whose contract was checked. */
const CHECKED: ReadonlySet<VerdictKind> = new Set(['success', 'in-body-error', 'contract-error']);

export const CONTRACT_HOLDS = 'The reply matches its contract.';

export interface ContractSection {
  readonly element: HTMLElement;
  /** The count line as shown: "1 error, 2 warnings", or CONTRACT_HOLDS. */
  readonly line: string;
  /** How many findings it lists (0: the reply matches its contract). */
  readonly findings: number;
}

export function contractFindingsOf(exchange: Exchange): Finding[] {
  const all = exchange.findings.filter((f) => f.kind === 'contract');
  // Errors first, each severity in the reader's order.
  return [...all.filter((f) => f.severity === 'error'), ...all.filter((f) => f.severity !== 'error')];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "A short phrase" for a code: "required element missing". */
function codePhrase(f: Finding): string {
  return (f.code && CONTRACT_CODES[f.code]?.phrase) ?? f.code ?? 'contract';
}

/**
 * Undefined when the reply's contract was not checked (no reply, a fault, an unreadable reply,
 * traffic of no known operation) and nothing was found.
 * `strict`: the request file's expectations count contract warnings as failures too.
 */
export function renderContract(exchange: Exchange, onPath: (path: string) => void, strict = false): ContractSection | undefined {
  const findings = contractFindingsOf(exchange);
  if (findings.length === 0 && !CHECKED.has(classifyExchange(exchange).kind)) return undefined;
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  const line =
    findings.length === 0 ? CONTRACT_HOLDS : [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
  const label = findings.length === 0 ? `Contract: ${CONTRACT_HOLDS}` : `Contract: ${line}`;
  const head = h('div', { className: 'section-head' }, h('h2', { id: 'contract-heading' }, 'Contract'));
  const body =
    findings.length === 0
      ? h('p', { className: 'contract-holds' }, icon('pass'), h('span', {}, CONTRACT_HOLDS))
      : [
          h(
            'p',
            { className: `contract-count ${errors ? 'has-errors' : 'has-warnings'}` },
            icon(errors ? 'error' : 'warning'),
            h('span', {}, line),
            h(
              'span',
              { className: 'muted' },
              errors
                ? ' · a typed client could not read this reply; no test of it passes'
                : strict
                  ? ' · the request file fails contract warnings too (strict contract)'
                  : ' · a typed client skips these; a strict run fails them',
            ),
          ),
          h(
            'ul',
            { className: 'contract-findings', attrs: { 'aria-label': `Contract findings: ${line}` } },
            ...findings.map((f) => contractItem(f, exchange.parsed !== undefined, onPath)),
          ),
        ];
  // A region of its own, reachable by Tab and named for a screen reader.
  const element = h(
    'section',
    { className: 'contract', role: 'region', tabIndex: 0, attrs: { 'aria-label': label, 'data-contract-errors': errors, 'data-contract-warnings': warnings } },
    head,
    body,
  );
  return { element, line, findings: findings.length };
}

/** The message without the path it starts with, which the item shows on its own. */
function messageOf(f: Finding): string {
  return f.path && f.path !== '$' && f.message.startsWith(`${f.path}: `) ? f.message.slice(f.path.length + 2) : f.message;
}

function contractItem(f: Finding, hasTree: boolean, onPath: (path: string) => void): HTMLElement {
  const envelope = !f.path || f.path === '$';
  const path = h('code', { className: 'contract-path' }, envelope ? '$' : f.path!);
  return h(
    'li',
    { className: `contract-finding sev-${f.severity}`, attrs: { 'data-code': f.code } },
    icon(f.severity === 'error' ? 'error' : 'warning', f.severity),
    h(
      'div',
      { className: 'contract-head' },
      envelope || !hasTree
        ? h('span', { className: 'finding-path', title: envelope ? 'The envelope as a whole' : 'Reply path' }, path)
        : linkButton(path, () => onPath(f.path!), 'Show in the parsed reply', 'finding-path'),
      h('span', { className: 'finding-kind contract-code', title: f.code }, codePhrase(f)),
    ),
    h('div', { className: 'finding-message' }, outsideText(messageOf(f))),
  );
}
