/**
 * The result's lists, read while the reply is parsed: each item of a list directly in the result
 * (a trace's Result/Shipment, a terminal lookup's TerminalInfo) is read along the catalog as soon
 * as its end tag is parsed, then left out of the element tree. A 10,000-shipment reply then never
 * holds a million elements and their JSON at once. What is read is what readList would read from
 * the tree afterwards, in the same order with the same issues; the rest of the reply is read from
 * the tree as before.
 */
import { elementNs, getRecord, listItemNs, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, type Binding, type OperationDef } from '../catalog';
import type { FieldDef, RecordDef } from '../catalog/types';
import type { CloseHook, XmlElement } from '../xml/dom';
import { isNil, readListItem, type ReadOptions } from '../xml/read';

export interface ListItems {
  readonly onClose: CloseHook;
  /** Items read so far, by list container: ReadOptions.preRead. */
  readonly preRead: Map<XmlElement, unknown[]>;
}

interface OpenList {
  readonly field: FieldDef;
  readonly itemUri: string;
  readonly items: unknown[];
}

/** Where a shape's list items sit in its replies over a binding: the same for every reply. */
interface ListPlan {
  readonly record: RecordDef;
  readonly lists: ReadonlyMap<string, FieldDef>;
  readonly depth: number;
  readonly inResult: (ancestors: readonly XmlElement[]) => boolean;
}

const plans = new WeakMap<OperationDef, Map<Binding, ListPlan>>();

function planOf(op: OperationDef, binding: Binding): ListPlan {
  let byBinding = plans.get(op);
  if (!byBinding) plans.set(op, (byBinding = new Map()));
  let plan = byBinding.get(binding);
  if (plan) return plan;
  const record = getRecord(op.result);
  const lists = new Map<string, FieldDef>(record.open ? [] : record.fields.filter((f) => f.list).map((f) => [f.name, f]));
  const soap = binding === 'soap11' || binding === 'soap12';
  const resultName = soap ? `${op.operation}Result` : (op.httpReplyRoot ?? `${op.operation}Result`);
  const responseName = `${op.operation}Response`;
  plan = {
    record,
    lists,
    // Where an item sits: Envelope/Body/<Op>Response/<Op>Result/<List>/item, or <Root>/<List>/item.
    depth: soap ? 5 : 2,
    inResult: (a) =>
      soap
        ? a[0].local === 'Envelope' &&
          (a[0].ns === SOAP11_ENVELOPE_NS || a[0].ns === SOAP12_ENVELOPE_NS) &&
          a[1].local === 'Body' &&
          a[1].ns === a[0].ns &&
          a[2].local === responseName &&
          a[3].local === resultName
        : a[0].local === resultName,
  };
  byBinding.set(binding, plan);
  return plan;
}

export function listItemReader(op: OperationDef, binding: Binding, opts: Omit<ReadOptions, 'preRead'>): ListItems {
  const { record, lists, depth, inResult } = planOf(op, binding);
  const preRead = new Map<XmlElement, unknown[]>();
  const decided = new Map<XmlElement, OpenList | null>();

  const onClose: CloseHook = (el, ancestors) => {
    if (ancestors.length !== depth || !lists.size) return false;
    const container = ancestors[depth - 1];
    let list = decided.get(container);
    if (list === undefined) {
      // Only a container readFields would read as this list, exactly: anything unusual is left
      // in the tree and read from there.
      const field = lists.get(container.local);
      const readable =
        field !== undefined &&
        container.ns === opts.namespaces[elementNs(field, record.ns)] &&
        !isNil(container) &&
        inResult(ancestors) &&
        !isNil(ancestors[depth - 2]);
      list = readable ? { field, itemUri: opts.namespaces[listItemNs(field, record.ns)], items: [] } : null;
      decided.set(container, list);
      if (list) preRead.set(container, list.items);
    }
    if (!list) return false;
    readListItem(el, list.field, list.itemUri, container.local, opts, list.items);
    return true;
  };
  return { onClose, preRead };
}
