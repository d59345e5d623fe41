/**
 * In-body error carriers → findings (docs/wire.md#in-body-error-carriers). The contract leaves
 * open when they are filled, so the workbench reads them by shape:
 *
 * - `WasSuccess` false (BaseReply of rate quote, transit times, bill of lading) is an error, and
 *   each `Messages/string` is one; with WasSuccess true or absent those strings are warnings.
 * - Pickup `WasSuccess` false is an error carrying `Pickup.Message`; a message on success is info.
 * - A trace Shipment with a non-empty `ErrorMessage` or `ErrResponse` is an error.
 * - Rate quote `Result.Messages/Message {Title, Text}` are notes: info when the reply says
 *   WasSuccess true, a warning when it does not say (the contract's own shape has no WasSuccess),
 *   an error when WasSuccess is false. An empty `ServiceLevels` is a warning: no rates.
 * - Transit `Destination.Result {Level, Message}`: severity from Level (Error → error, Warning →
 *   warning, anything else → info; a message without a level → warning).
 *
 * Only errors make `carrier send` exit 1.
 */
import type { RecordDef } from '../catalog/types';
import type { Finding, Severity } from '../exchange';
import { joinPath } from '../xml/read';
import { walkRecords } from './walk';

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

/**
 * All text inside an open record, for a one-line message, in document order. Open content nests
 * as deep as the parser allows, so the walk keeps its own stack.
 */
function flatText(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.trim()) out.push(v.trim());
    } else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
    else if (v && typeof v === 'object') {
      const items = Array.isArray(v) ? v : Object.values(v);
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    }
  }
  return out;
}

function clip(s: string, n = 300): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function levelSeverity(level: unknown): Severity {
  if (!nonEmpty(level)) return 'warning';
  if (/err|fatal|fail/i.test(level)) return 'error';
  if (/warn/i.test(level)) return 'warning';
  return 'info';
}

/** Whether a record has a WasSuccess field: asked at every visit, worked out once per record. */
const reportsSuccess = new WeakMap<RecordDef, boolean>();
function hasWasSuccess(record: RecordDef): boolean {
  let has = reportsSuccess.get(record);
  if (has === undefined) reportsSuccess.set(record, (has = record.fields.some((f) => f.name === 'WasSuccess')));
  return has;
}

/** The records that carry in-body errors (see the header); the walk visits no others' insides. */
function isCarrier(record: RecordDef): boolean {
  return (
    hasWasSuccess(record) ||
    record.name === 'Shipment' ||
    record.name === 'QuoteDetails' ||
    record.name === 'QuoteDetailsV100' ||
    record.name === 'TransitDestination'
  );
}

export function inBodyFindings(parsed: unknown, result: RecordDef): Finding[] {
  const findings: Finding[] = [];
  const add = (severity: Severity, message: string, path: string) => findings.push({ severity, kind: 'in-body', message, path });
  const top = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).WasSuccess : undefined;
  const topSuccess = typeof top === 'boolean' ? top : undefined;

  walkRecords(
    parsed,
    result,
    '',
    (record, value, path) => {
      if (!isCarrier(record)) return;
      if (hasWasSuccess(record)) {
        const ok = value.WasSuccess;
        const at = joinPath(path, 'WasSuccess');
        if (Array.isArray(value.Messages)) {
          value.Messages.forEach((m, i) => {
            if (nonEmpty(m)) add(ok === false ? 'error' : 'warning', m.trim(), `${joinPath(path, 'Messages')}[${i}]`);
          });
        }
        const single = value.Message;
        if (nonEmpty(single)) add(ok === false ? 'error' : 'info', single.trim(), joinPath(path, 'Message'));
        const said = (Array.isArray(value.Messages) && value.Messages.some(nonEmpty)) || nonEmpty(single);
        if (ok === false && !said) add('error', `${at} is false and no message says why`, at);
      }
      if (record.name === 'Shipment') {
        if (nonEmpty(value.ErrorMessage)) add('error', value.ErrorMessage.trim(), joinPath(path, 'ErrorMessage'));
        const err = flatText(value.ErrResponse);
        if (err.length) add('error', `ErrResponse: ${clip(err.join('; '))}`, joinPath(path, 'ErrResponse'));
      }
      if (record.name === 'QuoteDetails' || record.name === 'QuoteDetailsV100') {
        const severity: Severity = topSuccess === false ? 'error' : topSuccess === true ? 'info' : 'warning';
        if (Array.isArray(value.Messages)) {
          value.Messages.forEach((m, i) => {
            const { Title, Text } = (m ?? {}) as { Title?: unknown; Text?: unknown };
            // A Title and a Text say it; a message without both says what text it has.
            let message: string;
            if (nonEmpty(Title) && nonEmpty(Text)) message = `${Title.trim()}: ${Text.trim()}`;
            else {
              const text = flatText(m);
              if (!text.length) return;
              message = text.join(': ');
            }
            add(severity, clip(message), `${joinPath(path, 'Messages')}[${i}]`);
          });
        }
        if (Array.isArray(value.ServiceLevels) && value.ServiceLevels.length === 0)
          add('warning', 'No rates: ServiceLevels is empty', joinPath(path, 'ServiceLevels'));
      }
      if (record.name === 'TransitDestination') {
        const r = value.Result as { Level?: unknown; Message?: unknown } | undefined;
        if (r && (nonEmpty(r.Message) || levelSeverity(r.Level) === 'error')) {
          const level = nonEmpty(r.Level) ? `${r.Level.trim()}: ` : '';
          add(levelSeverity(r.Level), `${level}${nonEmpty(r.Message) ? r.Message.trim() : '(no message)'}`, joinPath(path, 'Result'));
        }
      }
    },
    isCarrier,
  );
  return findings;
}
