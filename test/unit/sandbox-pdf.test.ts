import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { availableDocuments, formatMoney } from '../../src/sandbox/carrier';
import { seededShipments, TEST_PRO } from '../../src/sandbox/history/seeded';
import { CODE128_PATTERNS, CODE_B, CODE_C, START_B, START_C, STOP, barRuns, encodeCode128 } from '../../src/sandbox/pdf/barcode';
import { billOfLadingPdf } from '../../src/sandbox/pdf/bol';
import { documentPdf } from '../../src/sandbox/pdf/documents';
import { checkLabelRequest, labelStyles, labelsPdf, normalizeLabelStyle } from '../../src/sandbox/pdf/labels';
import type { BillOfLadingData, BolMeta } from '../../src/sandbox/pdf/types';

const META: BolMeta = { bolId: 500117, proNumber: '056391174', createdAt: new Date('2025-11-21T15:00:00Z') };

const BOL: BillOfLadingData = {
  BOLDate: '11/21/2025',
  Shipper: {
    Name: 'Harpeth Valley Plastics',
    EmailAddress: 'ship@harpeth.example',
    AddressLine1: '1450 Industrial Park Dr',
    ISO3Country: 'USA',
    ZipCode: '37029',
    City: 'Burns',
    State: 'TN',
    PhoneNumber: '615-555-0111',
  },
  Consignee: {
    Name: 'Bayshore Restaurant Supply',
    AddressLine1: '8200 Anderson Rd',
    ISO3Country: 'USA',
    ZipCode: '33635',
    City: 'Tampa',
    State: 'FL',
    Attention: 'Receiving',
  },
  AdditionalServices: ['DestinationLiftgate'],
  ServiceLevel: 'StandardService',
  Items: [
    {
      IsHazmat: false,
      Pieces: 4,
      PackageType: 'PLT',
      NMFCItemNumber: '156600',
      NMFCClass: '03',
      Class: '85.0',
      Weight: 2260,
      Description: 'Plastic containers, nested',
    },
    { IsHazmat: true, Pieces: 36, PackageType: 'PAIL', Class: '55.0', Weight: 1620, Description: 'UN1263, Paint, 3, PG III' },
  ],
  HazmatInformation: { EmergenyNumber: '800-555-0142', ContractNumber: 'CCN204511', ContractHolder: 'Harpeth Valley Plastics' },
  DeclaredValue: { Value: '25000', Per: 'Shipment' },
  SpecialInstructions: 'Call consignee 30 minutes before delivery.',
  ReferenceNumbers: { ShipperNumber: 'SH120044', QuoteNumber: '7300412', PONumber: 'PO450981' },
  FreightChargePaymentMethod: 'Prepaid',
};

/** pdf-lib rewrites Producer and dates on load unless told not to. */
const load = (bytes: Uint8Array): Promise<PDFDocument> => PDFDocument.load(bytes, { updateMetadata: false });

/** Text of every page, via pdf.js: proves the PDF is readable by a real viewer engine. */
async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const standardFontDataUrl = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, disableFontFace: true, verbosity: 0 }).promise;
  const texts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    texts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await doc.destroy();
  return texts;
}

/** Decodes symbol widths back into values with the spec table, then values into text. */
function decode(widths: readonly number[]): { values: number[]; text: string } {
  const byPattern = new Map(CODE128_PATTERNS.map((p, v) => [p, v]));
  const values: number[] = [];
  let i = 0;
  while (i < widths.length) {
    const len = widths.length - i === 7 ? 7 : 6;
    const v = byPattern.get(widths.slice(i, i + len).join(''));
    assert.notEqual(v, undefined, `no symbol for widths at ${i}`);
    values.push(v!);
    i += len;
  }
  assert.equal(values.at(-1), STOP);
  const data = values.slice(0, -2);
  const check = data.reduce((sum, v, pos) => sum + v * Math.max(pos, 1), 0) % 103;
  assert.equal(values.at(-2), check, 'check symbol');
  let set = data[0] === START_C ? 'C' : 'B';
  assert.ok(data[0] === START_B || data[0] === START_C);
  let text = '';
  for (const v of data.slice(1)) {
    if (set === 'C' && v === CODE_B) set = 'B';
    else if (set === 'B' && v === CODE_C) set = 'C';
    else text += set === 'C' ? String(v).padStart(2, '0') : String.fromCharCode(v + 32);
  }
  return { values, text };
}

describe('sandbox pdf: Code 128', () => {
  it('has the standard symbol table: 107 distinct patterns of 11 modules, even bar parity, stop of 13', () => {
    assert.equal(CODE128_PATTERNS.length, 107);
    assert.equal(new Set(CODE128_PATTERNS).size, 107);
    CODE128_PATTERNS.slice(0, 106).forEach((p, v) => {
      const w = [...p].map(Number);
      assert.equal(w.length, 6, `value ${v}`);
      assert.equal(
        w.reduce((a, b) => a + b, 0),
        11,
        `value ${v}`,
      );
      assert.equal((w[0]! + w[2]! + w[4]!) % 2, 0, `bar parity of value ${v}`);
      assert.ok(w.every((x) => x >= 1 && x <= 4));
    });
    assert.equal(CODE128_PATTERNS[STOP], '2331112');
    // Spot checks against the published table.
    assert.deepEqual(
      [
        CODE128_PATTERNS[0],
        CODE128_PATTERNS[16],
        CODE128_PATTERNS[33],
        CODE128_PATTERNS[99],
        CODE128_PATTERNS[100],
        CODE128_PATTERNS[START_B],
        CODE128_PATTERNS[START_C],
      ],
      ['212222', '123122', '111323', '113141', '114131', '211214', '211232'],
    );
  });

  it('encodes the sample PRO in set C with a switch to B for the odd digit', () => {
    const sym = encodeCode128('056391174');
    // Start C, 05 63 91 17, Code B, "4", check 64, stop (check worked by hand:
    // 105 + 5*1 + 63*2 + 91*3 + 17*4 + 100*5 + 20*6 = 1197, 1197 mod 103 = 64).
    assert.deepEqual(sym.values, [105, 5, 63, 91, 17, 100, 20, 64, 106]);
    assert.equal(sym.modules, 8 * 11 + 13);
    assert.equal(sym.widths.length, 8 * 6 + 7);
  });

  it('computes the check symbol of a mixed text (PJJ123C -> 55)', () => {
    const sym = encodeCode128('PJJ123C');
    assert.deepEqual(sym.values, [104, 48, 42, 42, 17, 18, 19, 35, 55, 106]);
  });

  it('round-trips through a decoder for digits, letters and mixed runs', () => {
    for (const text of ['056391174', TEST_PRO, '12', '1234567890', 'A1234567B', 'BOL 500117', 'po-450981/x', '~ !"#', '0']) {
      assert.equal(decode(encodeCode128(text).widths).text, text, text);
    }
  });

  it('draws bars only where the widths say (first bar at 0, spaces between)', () => {
    const sym = encodeCode128('12');
    const runs = barRuns(sym);
    assert.equal(runs.length, sym.widths.filter((_, i) => i % 2 === 0).length);
    assert.deepEqual(runs[0], [0, 2]);
    const last = runs.at(-1)!;
    assert.equal(last[0] + last[1], sym.modules);
  });

  it('refuses what Code 128 sets B and C cannot carry', () => {
    assert.throws(() => encodeCode128(''), RangeError);
    assert.throws(() => encodeCode128('caf\u00e9'), RangeError);
    assert.throws(() => encodeCode128('a\tb'), RangeError);
  });
});

describe('sandbox pdf: bill of lading', () => {
  it('renders a one-page BOL that pdf-lib and pdf.js both read, with metadata', async () => {
    const bytes = await billOfLadingPdf(BOL, META);
    assert.ok(bytes.length < 50_000, `${bytes.length} bytes`);
    assert.equal(Buffer.from(bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
    const doc = await load(bytes);
    assert.equal(doc.getPageCount(), 1);
    assert.equal(doc.getProducer(), 'Carrier Workbench sandbox');
    assert.match(doc.getTitle() ?? '', /Bill of Lading 500117/);
    assert.match(doc.getSubject() ?? '', /056391174/);
    const [text] = await pageTexts(bytes);
    for (const expected of [
      'STRAIGHT BILL OF LADING',
      '056391174',
      '500117',
      'Harpeth Valley Plastics',
      'Bayshore Restaurant Supply',
      'Attn: Receiving',
      'PO450981',
      'UN1263, Paint, 3, PG III',
      '3,880',
      '800-555-0142',
      '$25,000.00 per Shipment',
      'Call consignee 30 minutes',
      'Page 1 of 1',
    ]) {
      assert.ok(text!.includes(expected), `missing ${expected}`);
    }
  });

  it('is reproducible: same input, same bytes', async () => {
    const a = await billOfLadingPdf(BOL, META);
    const b = await billOfLadingPdf(structuredClone(BOL), { ...META });
    assert.deepEqual(Buffer.from(a), Buffer.from(b));
  });

  it('continues a 500-item BOL over several pages, numbered, with the closing blocks at the end', async () => {
    const items = Array.from({ length: 500 }, (_, i) => ({
      IsHazmat: false,
      Pieces: 1,
      PackageType: 'CTN',
      Class: '100.0',
      Weight: 10,
      Description: `Line ${i + 1}`,
    }));
    const bytes = await billOfLadingPdf({ ...BOL, Items: items }, META);
    const pages = (await load(bytes)).getPageCount();
    assert.ok(pages >= 8 && pages <= 16, `${pages} pages`);
    const texts = await pageTexts(bytes);
    assert.equal(texts.length, pages);
    const all = texts.join('\n');
    for (const n of [1, 250, 500]) assert.ok(new RegExp(`Line ${n}\\b`).test(all), `line ${n}`);
    assert.ok(texts.at(-1)!.includes(`Page ${pages} of ${pages}`));
    assert.ok(texts.at(-1)!.includes('CARRIER SIGNATURE'));
    assert.ok(!texts[0]!.includes('CARRIER SIGNATURE'));
    assert.ok(texts[1]!.includes('(continued)') && texts[1]!.includes('DESCRIPTION OF ARTICLES'));
    assert.ok(all.includes('5,000'), 'total weight');
  });

  it('renders whatever is present, including nothing and characters the standard fonts lack', async () => {
    const empty = await billOfLadingPdf({}, META);
    assert.equal((await load(empty)).getPageCount(), 1);
    assert.ok((await pageTexts(empty))[0]!.includes('(no items)'));
    const odd = await billOfLadingPdf(
      { Shipper: { Name: 'Caf\u00e9 \u201cNord\u201d \u2014 \u6771\u4eac \ud83d\ude9a' }, Items: [{ Description: 'Tab\there\nnewline' }] },
      META,
    );
    const [text] = await pageTexts(odd);
    assert.ok(text!.includes('Caf\u00e9 "Nord" - ?? ?'), text);
  });
});

describe('sandbox pdf: labels', () => {
  it('documents each style with its labels per page', () => {
    assert.deepEqual(Object.fromEntries(Object.values(labelStyles).map((s) => [s.id, s.perPage])), {
      STYLE_1: 1,
      STYLE_2: 1,
      STYLE_3: 1,
      STYLE_4: 6,
      STYLE_5: 2,
      STYLE_6: 4,
      STYLE_7: 10,
    });
    for (const s of Object.values(labelStyles)) {
      // Every position must lie on the page.
      const right = s.left + (s.columns - 1) * s.pitchX + s.labelWidth;
      const bottom = s.top + (s.rows - 1) * s.pitchY + s.labelHeight;
      assert.ok(right <= s.pageWidth + 0.01 && bottom <= s.pageHeight + 0.01, s.id);
    }
  });

  it('starts at startPosition and runs onto a second sheet (4 per page, start 3, 5 labels -> 2 pages)', async () => {
    const bytes = await labelsPdf(BOL, META, { style: 'STYLE_6', startPosition: 3, numLabels: 5 });
    const doc = await load(bytes);
    assert.equal(doc.getPageCount(), 2);
    assert.deepEqual(doc.getPage(0).getSize(), { width: 612, height: 792 });
    assert.equal(doc.getProducer(), 'Carrier Workbench sandbox');
    const [first, second] = await pageTexts(bytes);
    assert.ok(first!.includes('1 of 5') && first!.includes('2 of 5') && !first!.includes('3 of 5'));
    assert.ok(second!.includes('3 of 5') && second!.includes('5 of 5'));
    assert.equal(first!.split('Bayshore Restaurant Supply').length - 1, 2);
    assert.equal(second!.split('Bayshore Restaurant Supply').length - 1, 3);
  });

  it('prints one 4x6 thermal label per page', async () => {
    const bytes = await labelsPdf(BOL, META, { style: 'STYLE_1', startPosition: 1, numLabels: 3 });
    const doc = await load(bytes);
    assert.equal(doc.getPageCount(), 3);
    assert.deepEqual(doc.getPage(2).getSize(), { width: 288, height: 432 });
    const texts = await pageTexts(bytes);
    assert.ok(texts[2]!.includes('3 of 3') && texts[2]!.includes('056391174') && texts[2]!.includes('Harpeth Valley Plastics'));
    assert.ok(texts[0]!.includes('HAZMAT'));
  });

  it('counts pages from the start position on every sheet style', async () => {
    for (const [style, start, count, pages] of [
      ['STYLE_4', 6, 1, 1],
      ['STYLE_4', 6, 2, 2],
      ['STYLE_7', 1, 10, 1],
      ['STYLE_7', 2, 10, 2],
      ['STYLE_5', 2, 3, 2],
      ['4', 1, 13, 3],
    ] as const) {
      const bytes = await labelsPdf(BOL, META, { style, startPosition: start, numLabels: count });
      assert.equal((await load(bytes)).getPageCount(), pages, `${style} ${start} ${count}`);
    }
  });

  it('rejects impossible requests with a message that says why', async () => {
    assert.equal(checkLabelRequest('STYLE_4', 1, 1), undefined);
    assert.equal(checkLabelRequest('style_6', '4', '100'), undefined);
    assert.match(checkLabelRequest('STYLE_99', 1, 1)!, /Unknown label style "STYLE_99".*STYLE_4/);
    assert.match(checkLabelRequest('', 1, 1)!, /Unknown label style/);
    assert.match(checkLabelRequest('STYLE_4', 7, 1)!, /between 1 and 6 for STYLE_4/);
    assert.match(checkLabelRequest('STYLE_4', 0, 1)!, /between 1 and 6/);
    assert.match(checkLabelRequest('STYLE_1', 2, 1)!, /must be 1 for STYLE_1/);
    assert.match(checkLabelRequest('STYLE_4', 1, 0)!, /numLabels must be between 1 and 100; got 0/);
    assert.match(checkLabelRequest('STYLE_4', 1, 101)!, /numLabels/);
    assert.match(checkLabelRequest('STYLE_4', 1, 2.5)!, /numLabels/);
    assert.match(checkLabelRequest('STYLE_4', 'x', 1)!, /startPosition/);
    await assert.rejects(labelsPdf(BOL, META, { style: 'STYLE_4', startPosition: 9, numLabels: 1 }), RangeError);
    assert.deepEqual(['STYLE_4', 'style4', ' 4 ', 'Style_7', 'STYLE_8', 'LARGE'].map(normalizeLabelStyle), [
      'STYLE_4',
      'STYLE_4',
      'STYLE_4',
      'STYLE_7',
      undefined,
      undefined,
    ]);
  });
});

describe('sandbox pdf: archive documents', () => {
  const anchor = new Date('2026-03-11T16:20:00Z');
  const shipments = seededShipments(anchor);
  const complete = shipments.find((s) => s.scaleWeight !== undefined && s.deliveredAt && s.deliveredAt < anchor)!;

  it('renders each document type of a delivered, reweighed PRO', async () => {
    assert.deepEqual(availableDocuments(complete, anchor), ['BillOfLading', 'WeightCertificate', 'Invoice', 'DeliveryReceipt']);
    const expected: Record<string, string[]> = {
      BillOfLading: ['STRAIGHT BILL OF LADING', complete.references.PO],
      WeightCertificate: ['WEIGHT CERTIFICATE', `${complete.scaleWeight!.toLocaleString('en-US')} LB`],
      Invoice: ['FREIGHT INVOICE', formatMoney(complete.netChargeCents), 'TOTAL DUE (USD)', 'Fuel Surcharge'],
      DeliveryReceipt: ['DELIVERY RECEIPT', `Printed name: ${complete.signedBy}`],
    };
    for (const kind of availableDocuments(complete, anchor)) {
      const bytes = await documentPdf(kind, complete, anchor);
      const doc = await load(bytes);
      assert.equal(doc.getPageCount(), 1, kind);
      assert.equal(doc.getProducer(), 'Carrier Workbench sandbox');
      const [text] = await pageTexts(bytes);
      assert.ok(text!.includes(complete.proNumber), kind);
      for (const e of expected[kind]!) assert.ok(text!.includes(e), `${kind}: ${e}`);
    }
  });

  it('notes a damage exception on the delivery receipt of the test PRO', async () => {
    const test = shipments.find((s) => s.proNumber === TEST_PRO)!;
    const [text] = await pageTexts(await documentPdf('DeliveryReceipt', test, anchor));
    assert.ok(text!.includes('EXCEPTION NOTED: 1 piece damaged'));
  });

  it('refuses a document the shipment does not have yet', async () => {
    const scheduled = shipments.find((s) => s.pickupAt > anchor)!;
    await assert.rejects(documentPdf('BillOfLading', scheduled, anchor), /BillOfLading is not available/);
    const inTransit = shipments.find((s) => s.pickupAt < anchor && (!s.deliveredAt || s.deliveredAt > anchor))!;
    await assert.rejects(documentPdf('DeliveryReceipt', inTransit, anchor), RangeError);
  });
});
