/**
 * The severity table of docs/collections.md#contract-findings is the code's: each code listed
 * once with the severity src/core/contractCodes.ts gives it, and each one made by the reply
 * reader, from a reply that has just that defect, with that severity and a path.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { CONTRACT_CODES } from '../../src/core/contractCodes';
import type { ContractCode } from '../../src/core/exchange';
import { parseReply } from '../../src/core/reply';
import type { ReplyContract } from '../../src/core/reply/contractCheck';
import { soapReply, SOAP11_TYPE, SOAP12_TYPE } from './transport-support';

function documentedTable(): Map<string, string> {
  const doc = fs.readFileSync(path.join(__dirname, '../../docs/collections.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Contract findings'), doc.indexOf('\n## ', doc.indexOf('## Contract findings') + 3));
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const m = /^\| `([a-z-]+)` \| (error|warning) \|/.exec(line);
    if (!m) continue;
    assert.ok(!rows.has(m[1]), `${m[1]} is listed once`);
    rows.set(m[1], m[2]);
  }
  return rows;
}

const NS = DEFAULT_NAMESPACES.service;
const quote = (inner: string) => `<GetRateQuoteResponse xmlns="${NS}">${inner}</GetRateQuoteResponse>`;
const result = (fields: string) => `<GetRateQuoteResult>${fields}</GetRateQuoteResult>`;
const LEVEL = '<Result><ServiceLevels><ServiceLevel><Title>Standard</Title><Code>STD</Code></ServiceLevel></ServiceLevels></Result>';

/** Each code, made by a reply with that one defect (GetRateQuote 1.0.3 over SOAP 1.1, unless said). */
const CASES: Record<ContractCode, { body: string; soap?: '1.1' | '1.2'; contract?: ReplyContract }> = {
  'not-of-type': { body: quote(result(`<WasSuccess>False</WasSuccess>${LEVEL}`)) },
  'missing-element': {
    body: quote(result(LEVEL)),
    // A live contract that requires WasSuccess (minOccurs 1), as a .NET service's WSDL says of a bool.
    contract: { required: (record, element) => (record === 'RateQuoteReply' && element === 'WasSuccess' ? true : undefined), knows: () => false },
  },
  repeated: { body: quote(result(`<WasSuccess>true</WasSuccess><WasSuccess>false</WasSuccess>${LEVEL}`)) },
  // Only the response element: its children keep the service namespace as the default.
  'wrong-namespace': {
    body: `<t:GetRateQuoteResponse xmlns:t="http://tempuri.org/" xmlns="${NS}">${result(`<WasSuccess>true</WasSuccess>${LEVEL}`)}</t:GetRateQuoteResponse>`,
  },
  'soap-version': { body: quote(result(`<WasSuccess>true</WasSuccess>${LEVEL}`)), soap: '1.2' },
  'no-result': { body: quote('') },
  'empty-result': { body: quote('<GetRateQuoteResult/>') },
  'unknown-element': { body: quote(result(`<WasSuccess>true</WasSuccess><Surcharge>12.00</Surcharge>${LEVEL}`)) },
  'out-of-order': { body: quote(result(`${LEVEL}<WasSuccess>true</WasSuccess>`)) },
};

describe('contract findings: the table in docs/collections.md is the code', () => {
  it('lists every code once, with the severity the code gives it', () => {
    const documented = documentedTable();
    assert.deepEqual(
      [...documented.entries()].sort(),
      Object.entries(CONTRACT_CODES)
        .map(([code, info]) => [code, info.severity])
        .sort(),
    );
  });

  for (const [code, c] of Object.entries(CASES) as Array<[ContractCode, (typeof CASES)[ContractCode]]>) {
    it(`${code}: a reply with just that defect has it, as a ${CONTRACT_CODES[code].severity} with a path`, async () => {
      const r = await parseReply({
        op: findShape('GetRateQuote', '1.0.3')!,
        binding: 'soap11',
        namespaces: DEFAULT_NAMESPACES,
        status: 200,
        statusText: 'OK',
        contentType: c.soap === '1.2' ? SOAP12_TYPE : SOAP11_TYPE,
        text: soapReply(c.soap ?? '1.1', c.body),
        ...(c.contract ? { contract: c.contract } : {}),
      });
      const contract = r.findings.filter((f) => f.kind === 'contract');
      assert.deepEqual(
        contract.map((f) => f.code),
        [code],
        JSON.stringify(r.findings),
      );
      assert.equal(contract[0].severity, CONTRACT_CODES[code].severity);
      assert.ok(contract[0].path, 'a reply path ($ for the envelope)');
    });
  }

  it('an element the stored live contract adds is known: no finding', async () => {
    const r = await parseReply({
      op: findShape('GetRateQuote', '1.0.3')!,
      binding: 'soap11',
      namespaces: DEFAULT_NAMESPACES,
      status: 200,
      statusText: 'OK',
      contentType: SOAP11_TYPE,
      text: soapReply('1.1', CASES['unknown-element'].body),
      contract: { required: () => undefined, knows: (record, element) => record === 'RateQuoteReply' && element === 'Surcharge' },
    });
    assert.deepEqual(
      r.findings.filter((f) => f.kind === 'contract'),
      [],
    );
  });
});
