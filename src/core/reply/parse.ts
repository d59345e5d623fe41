/**
 * A reply → what the workbench shows: the SOAP fault, the result read along the catalog
 * (unknown elements kept), findings, and decoded documents. Never throws for anything a server
 * can send: HTML error pages, empty bodies, truncated XML, a refused DOCTYPE and wrong content
 * types all become findings, and the caller keeps the raw body whatever happens here.
 *
 * The one reader (docs/architecture.md#one-reader): every reply is read here. The common SOAP
 * reply is read in one pass (commonReply.ts), anything else the general way, with the same result.
 */
import { getRecord, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, type Binding, type Namespaces, type OperationDef } from '../catalog';
import type { ContractCode, DecodedDocument, Finding, SoapFault } from '../exchange';
import { parseXml, XmlError, XmlLimitError, type XmlElement } from '../xml/dom';
import { parseDocumentKeeping } from '../xml/parser';
import { isNil, readGeneric, readRecord, type ReadIssue } from '../xml/read';
import { inBodyFindings } from './carriers';
import { canHoldDocuments, decodeDocuments } from './documents';
import { decodeFault, describeFault, isFault } from './fault';
import { summarizeHtml } from './html';
import { bodyKind } from './bodyKind';
import { mediaType } from './decodeText';
import { listItemReader } from './listItems';
import { readCommonReply } from './commonReply';
import { contractFindings, type ReplyContract } from './contractCheck';
import { CONTRACT_CODES } from '../contractCodes';

export interface ReplyInput {
  readonly op: OperationDef;
  readonly binding: Binding;
  readonly namespaces: Namespaces;
  readonly status: number;
  readonly statusText?: string;
  readonly contentType?: string;
  /** The decoded body text. */
  readonly text: string;
  /** The environment's stored live contract, where it has one: it decides what is required and known. */
  readonly contract?: ReplyContract;
  /**
   * false: the general way only, never the one-pass reader of the common reply. For the one test
   * that holds the two side by side (test/unit/reply-readers-equal.test.ts); asked per call, so
   * no switch stays set for the next caller.
   */
  readonly onePass?: boolean;
}

export interface ParsedReply {
  readonly fault?: SoapFault;
  /** The result record read along the catalog; absent when nothing could be read. */
  readonly parsed?: unknown;
  readonly findings: Finding[];
  readonly documents: DecodedDocument[];
}

const EXPECTED_MEDIA: Record<Binding, string> = {
  soap11: 'text/xml',
  soap12: 'application/soap+xml',
  get: 'text/xml',
  post: 'text/xml',
};

const MAX_ISSUES_PER_KIND = 50;
/** In-body and document findings listed one by one; past this they are counted. */
const MAX_IN_BODY_FINDINGS = 1000;

function status(input: ReplyInput): string {
  return `HTTP ${input.status}${input.statusText ? ` ${input.statusText}` : ''}`;
}

function clip(s: string, n = 120): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

export async function parseReply(input: ReplyInput): Promise<ParsedReply> {
  const findings: Finding[] = [];
  const { op, binding, text } = input;
  const media = mediaType(input.contentType);
  const httpProblem = (): void => {
    if (input.status !== 200) findings.push({ severity: 'error', kind: 'reply', message: `${status(input)}: the service did not answer 200 OK` });
  };

  switch (bodyKind(text, input.contentType)) {
    case 'empty':
      findings.push({ severity: 'error', kind: 'reply', message: `The reply body is empty (${status(input)}${media ? `, ${media}` : ''})` });
      return { findings, documents: [] };
    case 'html':
      findings.push({ severity: 'error', kind: 'reply', message: `The server answered with an HTML page, not XML (${status(input)}): ${summarizeHtml(text)}` });
      return { findings, documents: [] };
    case 'text':
      findings.push({ severity: 'error', kind: 'reply', message: `The reply is ${media}, not XML (${status(input)}): ${clip(text)}` });
      return { findings, documents: [] };
    case 'xml':
      break;
  }

  const soap = binding === 'soap11' || binding === 'soap12';
  const wantedEnvelope = binding === 'soap12' ? SOAP12_ENVELOPE_NS : SOAP11_ENVELOPE_NS;
  const common = soap && input.onePass !== false ? readCommonReply(text, op, wantedEnvelope, input.namespaces) : undefined;
  if (common) {
    // What the general way below would also say of such a reply: its Content-Type, its status.
    if (media && media !== EXPECTED_MEDIA[binding]) findings.push(mediaFinding(input));
    httpProblem();
    return resultRead(common.result, op, undefined, findings, input.contract);
  }

  let issues: ReadIssue[] = [];
  const listsOf = (into: ReadIssue[]) => listItemReader(op, binding, { namespaces: input.namespaces, outOfNamespace: 'keep', issues: into });
  let lists = listsOf(issues);
  let root: XmlElement;
  /** The reader's limit that stopped it, when only what came before it is read (readUpToLimit). */
  let stopped: XmlLimitError | undefined;
  try {
    root = parseXml(text, lists.onClose);
  } catch (err) {
    if (!(err instanceof XmlError)) throw err;
    const kept = err instanceof XmlLimitError && err.code === 'too-deep' ? readUpToLimit(text, (lists = listsOf((issues = [])))) : undefined;
    if (!kept) {
      findings.push({ severity: 'error', kind: 'reply', message: `${unreadable(err)} (${status(input)})` });
      return { findings, documents: [] };
    }
    root = kept.root;
    stopped = kept.stopped;
    // The limit named first, as when nothing is kept; a fault's reason or a result's leading fields follow.
    findings.push({ severity: 'error', kind: 'reply', message: `${unreadable(err)} (${status(input)})` });
    findings.push({ severity: 'info', kind: 'reply', message: KEPT_BEFORE_LIMIT });
  }

  const isEnvelope = root.local === 'Envelope' && (root.ns === SOAP11_ENVELOPE_NS || root.ns === SOAP12_ENVELOPE_NS);
  if (media && media !== EXPECTED_MEDIA[binding] && !(soap && isEnvelope && root.ns !== wantedEnvelope)) {
    findings.push(mediaFinding(input));
  }

  let content: XmlElement | undefined;
  if (isEnvelope) {
    if (soap && root.ns !== wantedEnvelope) {
      findings.push({
        ...contractFinding('soap-version'),
        path: '$',
        message: `The reply is a SOAP ${root.ns === SOAP12_ENVELOPE_NS ? '1.2' : '1.1'} envelope, but the request was SOAP ${binding === 'soap12' ? '1.2' : '1.1'}`,
      });
    }
    const body = root.children.find((c) => c.local === 'Body' && c.ns === root.ns);
    const first = body?.children[0];
    if (!body) {
      findings.push({ severity: 'error', kind: 'reply', message: `The SOAP envelope has no Body (${status(input)})` });
      return { findings, documents: [] };
    }
    if (first && isFault(first)) {
      const read = decodeFault(first);
      // Cut at the depth limit, the detail is a stub of what it was: the code and the reason stand.
      const { detail: _cut, ...withoutDetail } = read;
      const fault: SoapFault = stopped && read.detail !== undefined ? withoutDetail : read;
      if (fault !== read) findings.push({ severity: 'info', kind: 'fault', message: "The fault's detail is not kept: it goes on past the depth limit" });
      findings.push({ severity: 'error', kind: 'fault', message: describeFault(fault) });
      return { fault, findings, documents: [] };
    }
    if (!soap)
      findings.push({
        severity: 'warning',
        kind: 'reply',
        message: `The ${binding.toUpperCase()} binding answered with a SOAP envelope; the reply should be a bare <${op.httpReplyRoot}>`,
      });
    content = first ? soapResult(first, input, findings) : undefined;
    if (!first) findings.push({ severity: 'error', kind: 'reply', message: `The SOAP Body is empty: no <${op.operation}Response> (${status(input)})` });
  } else if (soap) {
    findings.push({
      severity: 'error',
      kind: 'reply',
      message: `The reply is not a SOAP envelope: its root is <${root.local}>${root.ns ? ` in ${root.ns}` : ''} (${status(input)})`,
    });
    httpProblem();
    return { parsed: { [root.local]: readGeneric(root) }, findings, documents: [] };
  } else {
    content = httpRoot(root, input, findings);
  }

  httpProblem();
  if (!content) return { findings, documents: [] };
  if (isNil(content)) {
    findings.push({ ...contractFinding('empty-result'), path: '$', message: `<${content.local}> is nil (xsi:nil): the reply carries no result` });
    return { parsed: null, findings, documents: [] };
  }
  const parsed = readRecord(content, getRecord(op.result), '', { namespaces: input.namespaces, outOfNamespace: 'keep', issues, preRead: lists.preRead });
  append(findings, issueFindings(issues, input.contract));
  // Cut at a limit, the result lacks what came after it: not missing, only not read (resultRead's `cut`).
  return resultRead(parsed, op, content.local, findings, stopped ? undefined : input.contract, stopped !== undefined);
}

/** What follows from the result read, either way: the in-body error carriers and the documents. */
/** `resultElement`: the result's element as it came; the SOAP `<OpResult>` when not given. */
/** `cut`: read only up to the depth limit (readUpToLimit), so nothing is said of what may follow (required fields, emptiness). */
async function resultRead(
  parsed: Record<string, unknown>,
  op: OperationDef,
  resultElement: string | undefined,
  findings: Finding[],
  contract: ReplyContract | undefined,
  cut = false,
): Promise<ParsedReply> {
  const record = getRecord(op.result);
  // An empty result element: nothing a client can use, whichever way it was read.
  let empty = true;
  for (const _ in parsed) {
    empty = false;
    break;
  }
  if (empty && !cut)
    findings.push({
      ...contractFinding('empty-result'),
      path: '$',
      message: `<${resultElement ?? `${op.operation}Result`}> is empty: the reply carries nothing a client can use`,
    });
  if (!cut) append(findings, contractFindings(parsed, record, contract));
  append(findings, atMost(inBodyFindings(parsed, record), MAX_IN_BODY_FINDINGS, 'in-body', 'findings in the reply'));
  // Most results can hold no document at all: no decoding to wait for.
  if (!canHoldDocuments(record)) return { parsed, findings, documents: [] };
  const docs = await decodeDocuments(parsed, record, op);
  append(findings, atMost(docs.findings, MAX_IN_BODY_FINDINGS, 'document', 'document findings'));
  return { parsed, findings, documents: docs.documents };
}

function mediaFinding(input: ReplyInput): Finding {
  const { binding } = input;
  return {
    severity: 'warning',
    kind: 'reply',
    message: `The reply's Content-Type is ${input.contentType}; a ${binding === 'soap11' ? 'SOAP 1.1' : binding === 'soap12' ? 'SOAP 1.2' : 'HTTP binding'} reply should be ${EXPECTED_MEDIA[binding]}`,
  };
}

/**
 * A reply nested past the depth limit, read again keeping what came before it
 * (parseDocumentKeeping: linear, within the same limits, the open chain no deeper than the
 * limit); undefined when nothing was. Past a count limit (elements, attributes, namespaces,
 * text) the reply is a flood and is refused whole, as before.
 */
function readUpToLimit(text: string, lists: ReturnType<typeof listItemReader>): { root: XmlElement; stopped: XmlLimitError } | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    const kept = parseDocumentKeeping(body, lists.onClose);
    return kept.stopped ? { root: kept.root, stopped: kept.stopped } : undefined;
  } catch {
    return undefined;
  }
}

/** Said after the limit's finding when what came before the limit is read. */
export const KEPT_BEFORE_LIMIT = "What came before that limit is read (a fault's code and reason, a result's leading fields); what follows it is not";

/** Why the XML could not be read, for a finding; the caller keeps the raw reply whatever the reason. */
function unreadable(err: XmlError): string {
  // Past one of the reader's limits (depth, elements, attributes, namespaces, names, text): the
  // reply may well be well-formed, so it is not called malformed, only more than is read.
  if (err instanceof XmlLimitError) return `${err.message.replace(/^The XML/, 'The reply')}; the raw reply is kept as received`;
  switch (err.code) {
    case 'doctype':
    case 'empty':
      return err.message;
    case 'truncated':
      return `The reply XML is cut short: ${err.message}`;
    default:
      return `The reply is not well-formed XML: ${err.message}`;
  }
}

/**
 * Pushes one by one: spreading an array into push() passes each item as an argument, and a
 * reply with 150,000 list items that each carry an error overflows the stack that way.
 */
function append(to: Finding[], items: readonly Finding[]): void {
  for (const f of items) to.push(f);
}

/**
 * The first `max` findings and a count of the rest by severity, so a reply with 200,000 failing
 * list items says so in a few lines (and callers can spread the list), keeping its worst severity.
 */
function atMost(items: readonly Finding[], max: number, kind: Finding['kind'], what: string): Finding[] {
  if (items.length <= max) return items as Finding[];
  const out = items.slice(0, max);
  const rest = new Map<Finding['severity'], number>();
  for (let i = max; i < items.length; i++) rest.set(items[i].severity, (rest.get(items[i].severity) ?? 0) + 1);
  for (const [severity, n] of rest)
    out.push({ severity, kind, message: `…and ${n.toLocaleString('en-US')} more ${severity === 'info' ? 'notes' : `${severity}s`} among the ${what}` });
  return out;
}

/** `<Operation>Response/<Operation>Result` (docs/wire.md#transport-rule-4); any prefix, namespace checked. */
function soapResult(response: XmlElement, input: ReplyInput, findings: Finding[]): XmlElement | undefined {
  const { op, namespaces } = input;
  const responseName = `${op.operation}Response`;
  const resultName = `${op.operation}Result`;
  if (response.local !== responseName) {
    findings.push({ severity: 'error', kind: 'reply', message: `Expected <${responseName}> in the SOAP Body, got <${response.local}>` });
    return undefined;
  }
  if (response.ns !== namespaces.service) {
    findings.push({
      ...contractFinding('wrong-namespace'),
      path: '$',
      message: `<${responseName}> is in ${response.ns || 'no namespace'}; the environment's service namespace is ${namespaces.service}`,
    });
  }
  const result = response.children.find((c) => c.local === resultName);
  if (!result) {
    findings.push({ ...contractFinding('no-result'), path: '$', message: `<${responseName}> holds no <${resultName}>: the reply carries no result` });
    return undefined;
  }
  if (result.ns !== namespaces.service) {
    findings.push({
      ...contractFinding('wrong-namespace'),
      path: '$',
      message: `<${resultName}> is in ${result.ns || 'no namespace'}; the environment's service namespace is ${namespaces.service}`,
    });
  }
  return result;
}

/** The bare reply root of the HTTP GET/POST bindings (docs/wire.md#transport-rule-5). */
function httpRoot(root: XmlElement, input: ReplyInput, findings: Finding[]): XmlElement | undefined {
  const { op, namespaces } = input;
  const expected = op.httpReplyRoot ?? `${op.operation}Result`;
  if (root.local !== expected) {
    findings.push({ severity: 'error', kind: 'reply', message: `Expected the reply root <${expected}>, got <${root.local}>` });
    return undefined;
  }
  if (root.ns !== namespaces.service) {
    findings.push({
      ...contractFinding('wrong-namespace'),
      path: '$',
      message: `<${expected}> is in ${root.ns || 'no namespace'}; the environment's service namespace is ${namespaces.service}`,
    });
  }
  return root;
}

/**
 * What each reader issue is against the contract, and how grave (docs/collections.md#contract-findings):
 * what a typed client cannot read past is an error, what it skips is a warning.
 */
const ISSUE_CONTRACT: Record<ReadIssue['kind'], ContractCode> = {
  unknown: 'unknown-element',
  order: 'out-of-order',
  namespace: 'wrong-namespace',
  type: 'not-of-type',
  repeated: 'repeated',
};

/** A contract finding's kind, code and severity, from the one table (contractCodes.ts). */
function contractFinding(code: ContractCode): Pick<Finding, 'kind' | 'code' | 'severity'> {
  return { kind: 'contract', code, severity: CONTRACT_CODES[code].severity };
}

/**
 * Reader issues → contract findings; a flood of one kind is summarised rather than listed in
 * full. An element a stored live contract adds to its record is known: no finding.
 */
function issueFindings(issues: readonly ReadIssue[], live: ReplyContract | undefined): Finding[] {
  const out: Finding[] = [];
  const counts = new Map<ReadIssue['kind'], number>();
  for (const issue of issues) {
    if (issue.kind === 'unknown' && live && issue.record && issue.element && live.knows(issue.record, issue.element)) continue;
    const n = (counts.get(issue.kind) ?? 0) + 1;
    counts.set(issue.kind, n);
    if (n > MAX_ISSUES_PER_KIND) continue;
    out.push({ ...contractFinding(ISSUE_CONTRACT[issue.kind]), message: issue.message, path: issue.path });
  }
  for (const [kind, n] of counts) {
    if (n > MAX_ISSUES_PER_KIND)
      out.push({ ...contractFinding(ISSUE_CONTRACT[kind]), message: `…and ${n - MAX_ISSUES_PER_KIND} more ${kind} issues like these` });
  }
  return out;
}
