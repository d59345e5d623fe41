/**
 * GetBillOfLadingLabelPDF: freight labels for a bill of lading, one per handling unit.
 *
 * The interface leaves `style` open; the reference carrier's label page uses `STYLE_4` and its
 * newer API numbers styles from 1 (docs/carrier-facts.md). The sandbox offers these layouts,
 * each a real label stock:
 *
 *   STYLE_1  4" x 6" thermal label, one per page
 *   STYLE_2  4" x 4" thermal label, one per page
 *   STYLE_3  8-1/2" x 11" full-sheet label, one per letter sheet
 *   STYLE_4  4" x 3-1/3" labels, 6 per letter sheet (2 x 3, Avery 5164 layout) - the carrier's default
 *   STYLE_5  8-1/2" x 5-1/2" half-sheet labels, 2 per letter sheet (Avery 5126 layout)
 *   STYLE_6  3-1/2" x 5" labels, 4 per letter sheet (2 x 2, Avery 5168 layout)
 *   STYLE_7  4" x 2" labels, 10 per letter sheet (2 x 5, Avery 5163 layout)
 *
 * Positions on a sheet count left to right, top to bottom, from 1. `startPosition` is the
 * first position used on the first sheet, so a half-used sheet can go back into the printer;
 * the positions before it stay blank. `numLabels` labels are printed (1 to 100, the range the
 * carrier's newer API allows), numbered "1 of N" to "N of N".
 */
import { formatUsDate } from '../carrier';
import { BLACK, CARRIER_NAME, GRAY, INCH, LETTER, Sheet, WHITE, barcodeWidth, embedFonts, newDocument, type Fonts } from './layout';
import { addressLines, cityLine, hasContent, isGuaranteed, serviceLevelTitle, weightText } from './text';
import type { BillOfLadingData, BolMeta } from './types';

export interface LabelStyle {
  readonly id: string;
  readonly description: string;
  /** Page size in points. */
  readonly pageWidth: number;
  readonly pageHeight: number;
  /** Label size in points. */
  readonly labelWidth: number;
  readonly labelHeight: number;
  readonly columns: number;
  readonly rows: number;
  /** Top-left corner of position 1 and the distance between label origins, in points. */
  readonly left: number;
  readonly top: number;
  readonly pitchX: number;
  readonly pitchY: number;
  readonly perPage: number;
}

function style(
  id: string,
  description: string,
  page: [number, number],
  label: [number, number],
  grid: [number, number],
  origin: [number, number] = [0, 0],
  pitch?: [number, number],
): LabelStyle {
  const [columns, rows] = grid;
  return {
    id,
    description,
    pageWidth: page[0] * INCH,
    pageHeight: page[1] * INCH,
    labelWidth: label[0] * INCH,
    labelHeight: label[1] * INCH,
    columns,
    rows,
    left: origin[0] * INCH,
    top: origin[1] * INCH,
    pitchX: (pitch?.[0] ?? label[0]) * INCH,
    pitchY: (pitch?.[1] ?? label[1]) * INCH,
    perPage: columns * rows,
  };
}

const LETTER_IN: [number, number] = [LETTER.width / INCH, LETTER.height / INCH];

export const labelStyles: Readonly<Record<string, LabelStyle>> = {
  STYLE_1: style('STYLE_1', '4" x 6" thermal label, 1 per page', [4, 6], [4, 6], [1, 1]),
  STYLE_2: style('STYLE_2', '4" x 4" thermal label, 1 per page', [4, 4], [4, 4], [1, 1]),
  STYLE_3: style('STYLE_3', '8-1/2" x 11" full-sheet label, 1 per sheet', LETTER_IN, LETTER_IN, [1, 1]),
  STYLE_4: style('STYLE_4', '4" x 3-1/3" labels, 6 per letter sheet', LETTER_IN, [4, 10 / 3], [2, 3], [0.156, 0.5], [4.188, 10 / 3]),
  STYLE_5: style('STYLE_5', '8-1/2" x 5-1/2" half-sheet labels, 2 per letter sheet', LETTER_IN, [8.5, 5.5], [1, 2]),
  STYLE_6: style('STYLE_6', '3-1/2" x 5" labels, 4 per letter sheet', LETTER_IN, [3.5, 5], [2, 2], [0.5, 0.5], [4, 5]),
  STYLE_7: style('STYLE_7', '4" x 2" labels, 10 per letter sheet', LETTER_IN, [4, 2], [2, 5], [0.156, 0.5], [4.188, 2]),
};

export const MAX_LABELS = 100;

/** `STYLE_4`, `style_4`, `Style4` and `4` all name STYLE_4; undefined when no such style. */
export function normalizeLabelStyle(value: string | number | undefined): string | undefined {
  const m = /^\s*(?:style_?)?(\d+)\s*$/i.exec(String(value ?? ''));
  if (!m) return undefined;
  const id = `STYLE_${Number(m[1])}`;
  return labelStyles[id] ? id : undefined;
}

function asInteger(value: number | string): number | undefined {
  const n = typeof value === 'number' ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) ? n : undefined;
}

/** Why a label request cannot be printed, or undefined when it can. */
export function checkLabelRequest(styleName: string, startPosition: number | string, numLabels: number | string): string | undefined {
  const id = normalizeLabelStyle(styleName);
  if (!id) {
    const known = Object.values(labelStyles)
      .map((s) => `${s.id} (${s.description})`)
      .join('; ');
    return `Unknown label style "${styleName}". Valid styles: ${known}.`;
  }
  const st = labelStyles[id]!;
  const start = asInteger(startPosition);
  if (start === undefined || start < 1 || start > st.perPage) {
    return st.perPage === 1
      ? `startPosition must be 1 for ${id} (${st.description}); got ${startPosition}.`
      : `startPosition must be between 1 and ${st.perPage} for ${id} (${st.description}); got ${startPosition}.`;
  }
  const count = asInteger(numLabels);
  if (count === undefined || count < 1 || count > MAX_LABELS) {
    return `numLabels must be between 1 and ${MAX_LABELS}; got ${numLabels}.`;
  }
  return undefined;
}

export interface LabelRequest {
  style: string;
  startPosition: number;
  numLabels: number;
}

interface LabelData {
  readonly bol: BillOfLadingData;
  readonly meta: BolMeta;
  readonly hazmat: boolean;
  readonly totalPieces: number;
  readonly totalWeight: number;
}

interface Box {
  readonly x: number;
  readonly top: number;
  readonly w: number;
  readonly h: number;
}

function badges(s: Sheet, f: Fonts, d: LabelData, right: number, top: number, size: number): void {
  let x = right;
  const badge = (text: string, inverted: boolean): void => {
    const w = f.bold.widthOfTextAtSize(text, size) + size;
    x -= w;
    s.rect(x, top, w, size * 1.5, inverted ? { fill: BLACK } : { stroke: BLACK, lineWidth: 1.2 });
    s.text(text, x + size / 2, top + size * 0.38, { font: f.bold, size, color: inverted ? WHITE : BLACK });
    x -= size / 2;
  };
  if (d.hazmat) badge('HAZMAT', false);
  if (isGuaranteed(d.bol.ServiceLevel)) badge('GUARANTEED', true);
  else if (d.bol.ServiceLevel === 'ExpeditedService' || d.bol.ServiceLevel === 'WeekendExpress')
    badge(serviceLevelTitle(d.bol.ServiceLevel).toUpperCase(), true);
}

/** Labels taller than wide: everything stacked, barcode across the middle (4x6 layout). */
function drawTall(s: Sheet, f: Fonts, d: LabelData, b: Box, n: number, count: number): void {
  const k = Math.min(b.w / 288, b.h / 432);
  const pad = 12 * k;
  const x = b.x + pad;
  const w = b.w - 2 * pad;
  let y = b.top + pad;
  s.text(CARRIER_NAME.toUpperCase(), x, y, { font: f.bold, size: 11 * k, maxWidth: w * 0.55 });
  badges(s, f, d, x + w, y - 2 * k, 8 * k);
  y += 20 * k;
  s.line(x, y, x + w, y, 1.2 * k);
  y += 7 * k;

  const sh = d.bol.Shipper;
  s.text('FROM', x, y, { font: f.bold, size: 7 * k, color: GRAY });
  s.text(sh?.Name ?? '', x + 30 * k, y, { font: f.bold, size: 9 * k, maxWidth: w - 30 * k });
  s.text(cityLine(sh), x + 30 * k, y + 12 * k, { font: f.regular, size: 8.5 * k, maxWidth: w - 30 * k });
  y += 28 * k;
  s.line(x, y, x + w, y, 0.6 * k);
  y += 7 * k;

  const c = d.bol.Consignee;
  s.text('TO', x, y, { font: f.bold, size: 7 * k, color: GRAY });
  y += 10 * k;
  s.text(c?.Name ?? '', x, y, { font: f.bold, size: 16 * k, maxWidth: w });
  y += 21 * k;
  const lines = addressLines(c);
  lines.slice(0, -1).forEach((l) => {
    s.text(l, x, y, { font: f.regular, size: 12 * k, maxWidth: w });
    y += 15 * k;
  });
  s.text(lines[lines.length - 1] ?? '', x, y, { font: f.bold, size: 14 * k, maxWidth: w });
  y += 18 * k;
  if (c?.Attention) s.text(`Attn: ${c.Attention}`, x, y, { font: f.regular, size: 9.5 * k, maxWidth: w });
  y += 10 * k;

  // The piece count sits on the bottom edge; the barcode is centred in the space between.
  const bottomTop = b.top + b.h - pad - 44 * k;
  const codeBlock = 112 * k;
  const codeTop = Math.max(y + 8 * k, y + (bottomTop - y - codeBlock) / 2);
  s.line(x, codeTop - 8 * k, x + w, codeTop - 8 * k, 1.2 * k);
  s.text('PRO', x, codeTop, { font: f.bold, size: 7 * k, color: GRAY });
  const bw = barcodeWidth(d.meta.proNumber, w, 2.4 * k);
  s.barcode(d.meta.proNumber, x + (w - bw) / 2, codeTop + 10 * k, 78 * k, w, 2.4 * k);
  s.text(d.meta.proNumber, x, codeTop + 92 * k, { font: f.bold, size: 18 * k, maxWidth: w, align: 'center' });
  s.line(x, bottomTop - 8 * k, x + w, bottomTop - 8 * k, 1.2 * k);

  const refs = referenceLines(d);
  refs.forEach((r, i) => s.text(r, x, bottomTop + i * 11 * k, { font: f.regular, size: 8.5 * k, maxWidth: w * 0.55 }));
  s.text('PIECE', x + w * 0.55, bottomTop, { font: f.bold, size: 7 * k, color: GRAY, maxWidth: w * 0.45, align: 'right' });
  s.text(`${n} of ${count}`, x + w * 0.55, bottomTop + 10 * k, { font: f.bold, size: 24 * k, maxWidth: w * 0.45, align: 'right' });
}

/** Labels wider than tall: address left, piece count right, barcode along the bottom. */
function drawWide(s: Sheet, f: Fonts, d: LabelData, b: Box, n: number, count: number): void {
  // The barcode strip scales with the label; the text takes whatever height is left, so a
  // 4" x 2" label keeps readable type and a half sheet gets large type.
  const kc = Math.min(b.w / 288, b.h / 240);
  const small = kc < 0.75;
  const pad = 9 * kc;
  const strip = 76 * kc;
  const c = d.bol.Consignee;
  const lines = addressLines(c);
  const street = small ? lines.slice(0, Math.min(1, lines.length - 1)) : lines.slice(0, -1);
  const showAttention = !!c?.Attention && !small;
  const naturalText = 20 + (small ? 0 : 11) + 8 + 15 + street.length * 12 + 14 + (showAttention ? 10 : 0);
  const k = Math.min(b.w / 288, (b.h - 2 * pad - strip - 6 * kc) / naturalText, 2.2);
  const x = b.x + pad;
  const w = b.w - 2 * pad;
  const leftW = w * 0.64;
  let y = b.top + pad;
  s.text(CARRIER_NAME.toUpperCase(), x, y, { font: f.bold, size: 9 * k, maxWidth: w * 0.5 });
  badges(s, f, d, x + w, y - 2 * k, 7 * k);
  y += 15 * k;
  s.line(x, y, x + w, y, 1 * k);
  const columnTop = y + 5 * k;
  y = columnTop;

  if (!small) {
    const sh = d.bol.Shipper;
    s.text(`FROM: ${[sh?.Name, cityLine(sh)].filter(Boolean).join(', ')}`, x, y, { font: f.regular, size: 7 * k, maxWidth: leftW });
    y += 11 * k;
  }
  s.text('TO', x, y, { font: f.bold, size: 6.5 * k, color: GRAY });
  y += 8 * k;
  s.text(c?.Name ?? '', x, y, { font: f.bold, size: 12 * k, maxWidth: leftW });
  y += 15 * k;
  street.forEach((l) => {
    s.text(l, x, y, { font: f.regular, size: 9.5 * k, maxWidth: leftW });
    y += 12 * k;
  });
  s.text(lines[lines.length - 1] ?? '', x, y, { font: f.bold, size: 11 * k, maxWidth: leftW });
  y += 14 * k;
  if (showAttention) s.text(`Attn: ${c!.Attention}`, x, y, { font: f.regular, size: 8 * k, maxWidth: leftW });

  const rx = x + leftW + 6 * k;
  const rw = w - leftW - 6 * k;
  s.text('PIECE', rx, columnTop, { font: f.bold, size: 6.5 * k, color: GRAY, maxWidth: rw, align: 'right' });
  s.text(`${n} of ${count}`, rx, columnTop + 9 * k, { font: f.bold, size: 20 * k, maxWidth: rw, align: 'right' });
  const refs = referenceLines(d).slice(0, small ? 2 : 3);
  refs.forEach((r, i) => s.text(r, rx, columnTop + 34 * k + i * 10 * k, { font: f.regular, size: 7.5 * k, maxWidth: rw, align: 'right' }));

  // Barcode strip along the bottom edge.
  const stripTop = b.top + b.h - pad - strip;
  s.line(x, stripTop - 5 * kc, x + w, stripTop - 5 * kc, 1 * kc);
  const bw = barcodeWidth(d.meta.proNumber, w, 2 * kc);
  s.barcode(d.meta.proNumber, x + (w - bw) / 2, stripTop, 58 * kc, w, 2 * kc);
  s.text(`PRO ${d.meta.proNumber}`, x, stripTop + 63 * kc, { font: f.bold, size: 11 * kc, maxWidth: w, align: 'center' });
}

function referenceLines(d: LabelData): string[] {
  const r = d.bol.ReferenceNumbers;
  return [
    `BOL ID ${d.meta.bolId}`,
    d.meta.due ? `Due ${d.meta.due.replace(/ (by|between) .*/, '')}` : '',
    r?.PONumber ? `PO ${r.PONumber}` : '',
    d.bol.BOLDate ? `Date ${d.bol.BOLDate}` : `Date ${formatUsDate(d.meta.createdAt)}`,
    `${d.totalPieces} pcs / ${weightText(d.totalWeight)} lb`,
  ].filter(Boolean);
}

export async function labelsPdf(bol: BillOfLadingData, meta: BolMeta, request: LabelRequest): Promise<Uint8Array> {
  const problem = checkLabelRequest(request.style, request.startPosition, request.numLabels);
  if (problem) throw new RangeError(problem);
  const st = labelStyles[normalizeLabelStyle(request.style)!]!;
  const start = Number(request.startPosition);
  const count = Number(request.numLabels);

  const doc = await newDocument(`Shipping labels for PRO ${meta.proNumber}`, `${count} label(s), ${st.id}: ${st.description}`, meta.createdAt);
  const f = await embedFonts(doc);
  const items = bol?.Items ?? [];
  const data: LabelData = {
    bol: bol ?? {},
    meta,
    hazmat: items.some((i) => i.IsHazmat === true) || hasContent(bol?.HazmatInformation?.EmergenyNumber),
    totalPieces: items.reduce((sum, i) => sum + (Number.isFinite(i.Pieces) ? Number(i.Pieces) : 0), 0),
    totalWeight: items.reduce((sum, i) => sum + (Number.isFinite(i.Weight) ? Number(i.Weight) : 0), 0),
  };
  const tall = st.labelHeight / st.labelWidth >= 1.2;
  let sheet: Sheet | undefined;
  for (let i = 0; i < count; i++) {
    const slot = start - 1 + i;
    const position = slot % st.perPage;
    if (!sheet || position === 0) sheet = new Sheet(doc.addPage([st.pageWidth, st.pageHeight]));
    const box: Box = {
      x: st.left + (position % st.columns) * st.pitchX,
      top: st.top + Math.floor(position / st.columns) * st.pitchY,
      w: st.labelWidth,
      h: st.labelHeight,
    };
    (tall ? drawTall : drawWide)(sheet, f, data, box, i + 1, count);
  }
  return doc.save();
}
