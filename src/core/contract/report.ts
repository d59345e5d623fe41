/**
 * The contract report for people: the namespaces first (what the environment should say), then
 * one block per service path and version, the blocks with the most serious differences first and
 * within each block the most serious difference first. The CLI prints it; the editor's view
 * lays out the same groups (reportGroups).
 */
import { BINDING_LABELS, type NamespaceRole } from '../catalog';
import { ROLE_PLACEHOLDERS, ROLE_SETTINGS } from './check';
import { byGravity } from './compare';
import type { ContractDifference, ContractReport, DifferenceSeverity, ServiceReport } from './types';

const ROLES: readonly NamespaceRole[] = ['service', 'data', 'pickup'];
const SEVERITY_RANK: Record<DifferenceSeverity, number> = { breaking: 0, changed: 1, added: 2 };

export interface ReportGroup {
  readonly service: ServiceReport;
  readonly differences: readonly ContractDifference[];
  /** The most serious severity in the group; undefined when nothing differs. */
  readonly worst?: DifferenceSeverity;
}

/** Service paths ordered by their most serious difference (unreadable ones first), then by path. */
export function reportGroups(report: ContractReport): ReportGroup[] {
  const rank = (g: ReportGroup) => (g.service.status === 'error' ? -1 : g.worst ? SEVERITY_RANK[g.worst] : 3);
  return report.services
    .map((service) => {
      const differences = [...service.differences].sort(byGravity);
      return { service, differences, ...(differences[0] ? { worst: differences[0].severity } : {}) };
    })
    .sort((a, b) => rank(a) - rank(b) || a.service.path.localeCompare(b.service.path));
}

/** Where a difference is, in one phrase: `GetRateQuote request`, `GetRateQuote 1.0.3 reply`. */
export function differenceScope(d: ContractDifference): string {
  const ops = d.operations?.length ? d.operations.join(', ') : '';
  const binding = d.binding ? ` ${BINDING_LABELS[d.binding]}` : '';
  return `${ops}${binding}${d.direction ? ` ${d.direction}` : ''}`.trim();
}

export function formatContractReport(report: ContractReport): string {
  const lines: string[] = [];
  lines.push(`Contract of environment "${report.environment}" at ${report.baseUrl}, checked ${report.checkedAt}`);
  lines.push('', 'Namespaces');
  for (const role of ROLES) {
    const n = report.namespaces[role];
    const label = ROLE_PLACEHOLDERS[role].padEnd(19);
    if (n.live === undefined) lines.push(`  ·  ${label} ${n.environment}  (no element of this role in the live contract)`);
    else if (!n.differs) lines.push(`  ✓  ${label} ${n.live}`);
    else
      lines.push(
        `  ✗  ${label} environment ${n.environment}`,
        `     ${''.padEnd(19)} live        ${n.live === '' ? '(no namespace)' : n.live}  → ${ROLE_SETTINGS[role]}: "${n.live}"`,
      );
    if (n.seen) for (const [uri, records] of Object.entries(n.seen)) lines.push(`     ${''.padEnd(19)} also ${uri}: ${records.join(', ')}`);
  }
  for (const d of report.differences.filter((x) => x.kind === 'namespace' && x.values)) lines.push(`  ✗  ${d.message}`);

  for (const group of reportGroups(report)) {
    const s = group.service;
    lines.push('', `${s.path}  ${s.service} ${s.version}`);
    if (s.status === 'error') {
      lines.push(`  cannot be read: ${s.error}`);
      continue;
    }
    if (s.status === 'read')
      lines.push(`  target namespace${s.targetNamespaces.length === 1 ? '' : 's'}: ${s.targetNamespaces.map((u) => u || '(none)').join(', ')}`);
    if (!group.differences.length) {
      lines.push('  ✓ as the catalog has it');
      continue;
    }
    for (const d of group.differences) {
      const scope = differenceScope(d);
      lines.push(`  ${d.severity.padEnd(8)} ${scope ? `${scope}: ` : ''}${d.message}`);
    }
  }

  const { summary } = report;
  lines.push('');
  if (summary.unreadable) lines.push(`✗ ${summary.unreadable} service path${summary.unreadable === 1 ? '' : 's'} could not be read.`);
  if (summary.differences === 0)
    lines.push(summary.unreadable ? '  What could be read is as the catalog has it.' : '✓ The live contract is as the catalog has it.');
  else
    lines.push(
      `${summary.differences} difference${summary.differences === 1 ? '' : 's'}: ${summary.breaking} breaking, ${summary.changed} changed, ${summary.added} added.`,
    );
  return `${lines.join('\n')}\n`;
}
