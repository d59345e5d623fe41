/**
 * GetDocuments: the archive documents of a PRO - the bill of lading, the weight certificate
 * from the origin's reweigh, the freight invoice and the signed delivery receipt.
 *
 * A document exists only once the freight got that far (data/archive.ts); asking for one
 * before that is a caller error and throws, so the sandbox must check availableDocuments
 * first and answer with the types that exist.
 */
import {
  documentDate,
  formatMoney,
  formatPounds,
  formatUsDate,
  formatUsDateTime,
  invoiceDateOf,
  wallClock,
  type DocumentType,
  type Party,
  type Shipment,
} from '../carrier';
import { billOfLadingPdf } from './bol';
import { shipmentToBillOfLading } from './from-shipment';
import { BLACK, CARRIER_NAME, CARRIER_SCAC, GRAY, LETTER, LIGHT, Sheet, barcodeWidth, embedFonts, newDocument, type Fonts } from './layout';
import { serviceLevelTitle } from './text';

const M = 42;
const W = LETTER.width - 2 * M;

const TITLES: Record<DocumentType, string> = {
  BillOfLading: 'Bill of Lading',
  WeightCertificate: 'Weight Certificate',
  Invoice: 'Freight Invoice',
  DeliveryReceipt: 'Delivery Receipt',
};

/** Remit-to address printed on invoices (fictional, like the carrier itself). */
const REMIT_TO = ['Sandbox Freight Lines', 'PO Box 0147', 'Nashville, TN 37202'];

interface Ctx {
  readonly s: Sheet;
  readonly f: Fonts;
  readonly shipment: Shipment;
  top: number;
}

/** `zone`: where the dated thing happened, whose calendar names its date. */
function header(c: Ctx, title: string, dateLabel: string, date: Date, zone: string): void {
  const { s, f, shipment } = c;
  s.text(CARRIER_NAME.toUpperCase(), M, M, { font: f.bold, size: 11 });
  s.text(`SCAC ${CARRIER_SCAC}   -   Carrier Workbench sandbox document, not valid for billing`, M, M + 14, { font: f.regular, size: 7, color: GRAY });
  s.text(title.toUpperCase(), M, M + 30, { font: f.bold, size: 18 });
  s.text(`${dateLabel}: ${formatUsDate(wallClock(date, zone))}`, M, M + 54, { font: f.regular, size: 9.5 });
  const bw = barcodeWidth(shipment.proNumber, 220, 1.5);
  const bx = M + W - (bw || 220);
  s.text('PRO NUMBER', bx, M, { font: f.bold, size: 6.5, color: GRAY, maxWidth: bw || 220 });
  s.barcode(shipment.proNumber, bx, M + 9, 32, 220, 1.5);
  s.text(shipment.proNumber, bx, M + 45, { font: f.bold, size: 11, maxWidth: bw || 220, align: 'center' });
  c.top = M + 72;
  s.line(M, c.top, M + W, c.top, 1.2);
  c.top += 10;
}

function partyBlock(c: Ctx, title: string, p: Party, x: number, width: number, top: number): number {
  const { s, f } = c;
  s.text(title, x, top, { font: f.bold, size: 6.5, color: GRAY });
  const lines = [p.AddressLine1, p.AddressLine2, `${p.City}, ${p.State} ${p.ZipCode}${p.Country === 'USA' ? '' : `  ${p.Country}`}`].filter(Boolean);
  s.text(p.Name, x, top + 10, { font: f.bold, size: 9.5, maxWidth: width });
  lines.forEach((l, i) => s.text(l, x, top + 23 + i * 11, { font: f.regular, size: 8.5, maxWidth: width }));
  return 23 + lines.length * 11;
}

function parties(c: Ctx, blocks: Array<[string, Party]>): void {
  const width = (W - (blocks.length - 1) * 12) / blocks.length;
  const h = Math.max(...blocks.map(([title, p], i) => partyBlock(c, title, p, M + i * (width + 12), width, c.top)));
  c.top += h + 10;
}

/** Label/value pairs in a boxed grid, `perRow` per row. */
function facts(c: Ctx, pairs: Array<[string, string]>, perRow = 4): void {
  const { s, f } = c;
  const rows = Math.ceil(pairs.length / perRow);
  const w = W / perRow;
  const rowH = 24;
  s.rect(M, c.top, W, rows * rowH);
  pairs.forEach(([label, value], i) => {
    const x = M + (i % perRow) * w;
    const y = c.top + Math.floor(i / perRow) * rowH;
    if (i % perRow > 0) s.line(x, y, x, y + rowH);
    if (i >= perRow && i % perRow === 0) s.line(M, y, M + W, y);
    s.text(label, x + 4, y + 4, { font: f.bold, size: 6.5, color: GRAY, maxWidth: w - 8 });
    s.text(value || '-', x + 4, y + 13, { font: f.bold, size: 9, maxWidth: w - 8 });
  });
  c.top += rows * rowH + 10;
}

interface Column {
  readonly title: string;
  readonly width: number;
  readonly align?: 'left' | 'right';
}

function table(c: Ctx, columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, boldLast = 0): void {
  const { s, f } = c;
  s.rect(M, c.top, W, 14, { fill: LIGHT, stroke: BLACK });
  let x = M;
  for (const col of columns) {
    s.text(col.title, x + 3, c.top + 4, { font: f.bold, size: 6.5, maxWidth: col.width - 6, align: col.align ?? 'left' });
    x += col.width;
  }
  c.top += 14;
  rows.forEach((row, r) => {
    const bold = r >= rows.length - boldLast;
    let cx = M;
    row.forEach((cell, i) => {
      const col = columns[i]!;
      s.text(cell, cx + 3, c.top + 4, { font: bold ? f.bold : f.regular, size: 8.5, maxWidth: col.width - 6, align: col.align ?? 'left' });
      cx += col.width;
    });
    c.top += 16;
    s.line(M, c.top, M + W, c.top, 0.4, GRAY);
  });
  c.top += 10;
}

function footer(c: Ctx, now: Date): void {
  const { s, f, shipment } = c;
  const y = LETTER.height - M;
  s.line(M, y - 4, M + W, y - 4, 0.4, GRAY);
  s.text(`PRO ${shipment.proNumber}   BOL ${shipment.references.BOL}`, M, y, { font: f.regular, size: 7, color: GRAY });
  s.text(`Copy printed ${formatUsDateTime(now)} UTC`, M, y, { font: f.regular, size: 7, color: GRAY, maxWidth: W, align: 'right' });
}

function itemRows(shipment: Shipment): string[][] {
  return shipment.items.map((i) => [String(i.Pieces), i.PackageType, i.IsHazmat ? 'X' : '', i.Description, i.Class, formatPounds(i.Weight)]);
}

const ITEM_COLUMNS: readonly Column[] = [
  { title: 'PIECES', width: 46, align: 'right' },
  { title: 'PKG', width: 40 },
  { title: 'HM', width: 24 },
  { title: 'DESCRIPTION', width: W - 46 - 40 - 24 - 50 - 68 },
  { title: 'CLASS', width: 50, align: 'right' },
  { title: 'WEIGHT (LB)', width: 68, align: 'right' },
];

function weightCertificate(c: Ctx, weighedAt: Date): void {
  const { s, f, shipment } = c;
  const t = shipment.originTerminal;
  const scale = shipment.scaleWeight ?? shipment.weight;
  const diff = scale - shipment.weight;
  const pct = shipment.weight ? (diff / shipment.weight) * 100 : 0;
  header(c, TITLES.WeightCertificate, 'Date weighed', weighedAt, c.shipment.originTerminal.zone);
  c.top +=
    s.paragraph(
      `This is to certify that the shipment described below was weighed on a certified scale at the carrier's ${t.TerminalName} (${t.TerminalCode}), ${t.TerminalMailingAddress1}, ${t.TerminalMailingCity}, ${t.TerminalMailingState} ${t.TerminalMailingZip}, with the result shown.`,
      M,
      c.top,
      W,
      { font: f.regular, size: 9, leading: 12 },
    ) + 8;
  parties(c, [
    ['SHIPPER', shipment.shipper],
    ['CONSIGNEE', shipment.consignee],
  ]);
  facts(c, [
    ['BOL NUMBER', shipment.references.BOL],
    ['PO NUMBER', shipment.references.PO],
    ['PIECES', String(shipment.pieces)],
    ['WEIGHED AT', formatUsDateTime(wallClock(weighedAt, c.shipment.originTerminal.zone))],
    ['SCALE', `${t.TerminalCode}-SC02 (platform scale)`],
    ['WEIGHT ON BOL', `${formatPounds(shipment.weight)} lb`],
    ['CERTIFIED SCALE WEIGHT', `${formatPounds(scale)} lb`],
    ['DIFFERENCE', `${diff >= 0 ? '+' : ''}${formatPounds(diff)} lb (${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%)`],
  ]);
  table(c, ITEM_COLUMNS, itemRows(shipment));
  s.rect(M, c.top, W, 58);
  s.text('CERTIFIED SCALE WEIGHT', M + 8, c.top + 8, { font: f.bold, size: 8, color: GRAY });
  s.text(`${formatPounds(scale)} LB`, M + 8, c.top + 20, { font: f.bold, size: 24 });
  s.line(M + W - 200, c.top + 40, M + W - 10, c.top + 40, 0.6);
  s.text('Weighmaster', M + W - 200, c.top + 44, { font: f.regular, size: 7, color: GRAY });
  s.text(`${t.TerminalCode} dock supervisor`, M + W - 200, c.top + 26, { font: f.script, size: 13 });
  c.top += 66;
}

function invoice(c: Ctx, invoiceDate: Date, now: Date): void {
  const { s, f, shipment } = c;
  const due = new Date(invoiceDate.getTime() + 30 * 86_400_000);
  header(c, TITLES.Invoice, 'Invoice date', invoiceDate, c.shipment.originTerminal.zone);
  const billTo = shipment.is3PL ? shipment.billTo : shipment.paymentTerms === 'Collect' ? shipment.consignee : shipment.shipper;
  parties(c, [
    ['BILL TO', billTo],
    ['SHIPPER', shipment.shipper],
    ['CONSIGNEE', shipment.consignee],
  ]);
  const delivered =
    shipment.deliveredAt && shipment.deliveredAt.getTime() <= now.getTime()
      ? formatUsDate(wallClock(shipment.deliveredAt, shipment.destinationTerminal.zone))
      : 'In transit';
  facts(c, [
    ['INVOICE NUMBER', shipment.proNumber],
    ['TERMS', `${shipment.paymentTerms}, net 30`],
    ['DUE DATE', formatUsDate(wallClock(due, shipment.originTerminal.zone))],
    ['ACCOUNT', shipment.references.Account],
    ['PICKUP DATE', formatUsDate(shipment.pickupDay)],
    ['DELIVERY DATE', delivered],
    ['SERVICE', serviceLevelTitle(shipment.serviceLevel)],
    ['BOL / PO', `${shipment.references.BOL} / ${shipment.references.PO}`],
  ]);
  const columns: Column[] = [
    { title: 'DESCRIPTION', width: W - 80 - 80 - 90 },
    { title: 'WEIGHT (LB)', width: 80, align: 'right' },
    { title: 'RATE / CWT', width: 80, align: 'right' },
    { title: 'AMOUNT', width: 90, align: 'right' },
  ];
  const itemDescriptions = shipment.items.map((i) => `${i.Pieces} ${i.PackageType} ${i.Description}`);
  let itemIndex = 0;
  const rows = shipment.charges.map((line) => {
    if (line.Type === '') {
      const desc = `${itemDescriptions[itemIndex++] ?? ''} - ${line.Title}`;
      return [desc, formatPounds(line.weight ?? 0), line.ratePerCwt !== undefined ? `$${line.ratePerCwt.toFixed(2)}` : '', formatMoney(line.amountCents)];
    }
    return [line.Type === 'NET' ? 'TOTAL DUE (USD)' : line.Title, '', '', formatMoney(line.amountCents)];
  });
  table(c, columns, rows, 1);
  s.rect(M, c.top, W, 46);
  s.text('REMIT TO', M + 8, c.top + 6, { font: f.bold, size: 6.5, color: GRAY });
  REMIT_TO.forEach((l, i) => s.text(l, M + 8, c.top + 16 + i * 10, { font: f.regular, size: 8.5 }));
  s.text('AMOUNT DUE', M + W - 190, c.top + 6, { font: f.bold, size: 6.5, color: GRAY, maxWidth: 180, align: 'right' });
  s.text(formatMoney(shipment.netChargeCents), M + W - 190, c.top + 16, { font: f.bold, size: 20, maxWidth: 180, align: 'right' });
  c.top += 54;
  s.paragraph(
    "Please reference the PRO number with your payment. Charges are subject to the carrier's tariff, including reweigh and inspection adjustments; questions about this invoice must be raised within 180 days of the invoice date.",
    M,
    c.top,
    W,
    { font: f.regular, size: 7, leading: 9, color: GRAY },
  );
}

function deliveryReceipt(c: Ctx, deliveredAt: Date): void {
  const { s, f, shipment } = c;
  header(c, TITLES.DeliveryReceipt, 'Delivered', deliveredAt, c.shipment.destinationTerminal.zone);
  parties(c, [
    ['CONSIGNEE', shipment.consignee],
    ['SHIPPER', shipment.shipper],
  ]);
  const dest = shipment.destinationTerminal;
  facts(c, [
    ['DELIVERED AT', formatUsDateTime(wallClock(deliveredAt, c.shipment.destinationTerminal.zone))],
    ['DELIVERING TERMINAL', `${dest.TerminalCode} ${dest.TerminalMailingCity}, ${dest.TerminalMailingState}`],
    ['PIECES', String(shipment.pieces)],
    ['WEIGHT', `${formatPounds(shipment.scaleWeight ?? shipment.weight)} lb`],
    ['BOL NUMBER', shipment.references.BOL],
    ['PO NUMBER', shipment.references.PO],
    ['SERVICE', serviceLevelTitle(shipment.serviceLevel)],
    ['TERMS', shipment.paymentTerms],
  ]);
  table(c, ITEM_COLUMNS, itemRows(shipment));
  const exception =
    shipment.exception === 'Damaged' ? 'EXCEPTION NOTED: 1 piece damaged - see driver notes.' : 'Received in apparent good order, no exceptions noted.';
  s.rect(M, c.top, W, 22, shipment.exception === 'Damaged' ? { stroke: BLACK, lineWidth: 1.5 } : {});
  s.text(exception, M + 8, c.top + 7, { font: f.bold, size: 9, maxWidth: W - 16 });
  c.top += 30;
  const signer = shipment.signedBy ?? '';
  s.rect(M, c.top, W, 70);
  s.text('RECEIVED BY (SIGNATURE)', M + 8, c.top + 6, { font: f.bold, size: 6.5, color: GRAY });
  s.text(signatureOf(signer), M + 16, c.top + 22, { font: f.script, size: 22 });
  s.line(M + 8, c.top + 50, M + W / 2, c.top + 50, 0.6);
  s.text(`Printed name: ${signer}`, M + 8, c.top + 54, { font: f.regular, size: 8 });
  s.text('DATE / TIME', M + W / 2 + 20, c.top + 6, { font: f.bold, size: 6.5, color: GRAY });
  s.text(formatUsDateTime(wallClock(deliveredAt, c.shipment.destinationTerminal.zone)), M + W / 2 + 20, c.top + 26, { font: f.bold, size: 12 });
  c.top += 78;
}

/** `J. SMITH` -> `J. Smith`: a signature is not written in capitals. */
function signatureOf(name: string): string {
  return name.toLowerCase().replace(/\b[a-z]/g, (ch) => ch.toUpperCase());
}

export async function documentPdf(kind: DocumentType, shipment: Shipment, now: Date): Promise<Uint8Array> {
  const date = documentDate(shipment, kind, now);
  if (!date) throw new RangeError(`${kind} is not available for PRO ${shipment.proNumber} at ${formatUsDateTime(now)}`);
  if (kind === 'BillOfLading') {
    return billOfLadingPdf(shipmentToBillOfLading(shipment), { bolId: shipment.bolId, proNumber: shipment.proNumber, createdAt: date });
  }
  const doc = await newDocument(`${TITLES[kind]} - PRO ${shipment.proNumber}`, `${TITLES[kind]} for PRO ${shipment.proNumber}`, date);
  const f = await embedFonts(doc);
  const c: Ctx = { s: new Sheet(doc.addPage([LETTER.width, LETTER.height])), f, shipment, top: M };
  if (kind === 'WeightCertificate') weightCertificate(c, date);
  else if (kind === 'Invoice') invoice(c, invoiceDateOf(shipment), now);
  else deliveryReceipt(c, date);
  footer(c, now);
  return doc.save();
}
