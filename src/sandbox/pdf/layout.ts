/**
 * Drawing helpers shared by the sandbox PDFs: top-down coordinates, text that never overflows
 * its column, boxes, and the Code 128 barcode as rectangles.
 *
 * Standard fonts are WinAnsi-encoded; pdf-lib throws on any character outside that set, and
 * request data can contain anything. Every string therefore goes through `clean` first, which
 * maps typographic punctuation to plain ASCII and replaces what is left over with '?'.
 */
import { PDFDocument, PDFFont, PDFPage, StandardFonts, rgb, type RGB } from 'pdf-lib';
import { QUIET_ZONE_MODULES, barRuns, encodeCode128 } from './barcode';

export const PRODUCER = 'Carrier Workbench sandbox';
export const CARRIER_NAME = 'Sandbox Freight Lines';
export const CARRIER_SCAC = 'SBFL';

export const INCH = 72;
export const LETTER = { width: 612, height: 792 } as const;

export const BLACK = rgb(0, 0, 0);
export const GRAY = rgb(0.45, 0.45, 0.45);
export const LIGHT = rgb(0.9, 0.9, 0.9);
export const WHITE = rgb(1, 1, 1);

export interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  readonly mono: PDFFont;
  /** For signatures on the delivery receipt. */
  readonly script: PDFFont;
}

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const [regular, bold, mono, script] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(StandardFonts.Courier),
    doc.embedFont(StandardFonts.TimesRomanItalic),
  ]);
  return { regular, bold, mono, script };
}

/** A new document with the metadata every sandbox PDF carries; dates fixed for reproducible bytes. */
export async function newDocument(title: string, subject: string, createdAt: Date): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  doc.setTitle(title, { showInWindowTitleBar: true });
  doc.setSubject(subject);
  doc.setProducer(PRODUCER);
  doc.setCreator(PRODUCER);
  doc.setAuthor(CARRIER_NAME);
  doc.setCreationDate(createdAt);
  doc.setModificationDate(createdAt);
  return doc;
}

const TYPOGRAPHIC: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00a0': ' ',
  '\u2022': '*',
  '\t': ' ',
  '\r': ' ',
  '\n': ' ',
};

const charsetCache = new WeakMap<PDFFont, Set<number>>();

/** Text the font can show: typographic marks simplified, anything else unsupported as '?'. */
export function clean(text: unknown, font: PDFFont): string {
  if (text === undefined || text === null) return '';
  let charset = charsetCache.get(font);
  if (!charset) {
    charset = new Set(font.getCharacterSet());
    charsetCache.set(font, charset);
  }
  let out = '';
  for (const ch of String(text)) {
    const mapped = TYPOGRAPHIC[ch] ?? ch;
    for (const c of mapped) {
      const cp = c.codePointAt(0)!;
      out += cp >= 32 && charset.has(cp) ? c : '?';
    }
  }
  return out;
}

/** Cuts text to `maxWidth`, ending in '...' when something had to go. */
export function fit(text: string, font: PDFFont, size: number, maxWidth: number): string {
  if (font.widthOfTextAtSize(text, size) <= maxWidth) return text;
  const ellipsis = '...';
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.widthOfTextAtSize(text.slice(0, mid) + ellipsis, size) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : text.slice(0, lo).trimEnd() + ellipsis;
}

/** Word-wraps into at most `maxLines` lines; words longer than a line are broken. */
export function wrap(text: string, font: PDFFont, size: number, maxWidth: number, maxLines = Infinity): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  const width = (s: string): number => font.widthOfTextAtSize(s, size);
  for (let word of words) {
    while (width(word) > maxWidth && word.length > 1) {
      // Break an over-long token where it stops fitting.
      let cut = word.length - 1;
      while (cut > 1 && width(word.slice(0, cut)) > maxWidth) cut--;
      if (line) lines.push(line);
      lines.push(word.slice(0, cut));
      line = '';
      word = word.slice(cut);
    }
    const candidate = line ? `${line} ${word}` : word;
    if (width(candidate) <= maxWidth) line = candidate;
    else {
      if (line) lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fit(`${kept[maxLines - 1]} ${lines[maxLines]}`, font, size, maxWidth);
  if (!kept[maxLines - 1]!.endsWith('...')) kept[maxLines - 1] = fit(`${kept[maxLines - 1]}...`, font, size, maxWidth);
  return kept;
}

export interface TextOptions {
  font: PDFFont;
  size: number;
  color?: RGB;
  maxWidth?: number;
  align?: 'left' | 'right' | 'center';
}

/** Width `Sheet.barcode` would use (quiet zones included), 0 when the text cannot be encoded. */
export function barcodeWidth(value: string, maxWidth: number, maxModule = 1.5): number {
  try {
    const total = encodeCode128(value).modules + 2 * QUIET_ZONE_MODULES;
    return total * Math.min(maxModule, maxWidth / total);
  } catch {
    return 0;
  }
}

/**
 * A page addressed from the top-left corner, as forms are designed; `top` arguments are the
 * distance from the top edge of the page to the top of the text or box.
 */
export class Sheet {
  constructor(readonly page: PDFPage) {}

  get width(): number {
    return this.page.getWidth();
  }

  get height(): number {
    return this.page.getHeight();
  }

  /** Draws one line; returns the width used. */
  text(value: unknown, x: number, top: number, o: TextOptions): number {
    let s = clean(value, o.font);
    if (o.maxWidth !== undefined) s = fit(s, o.font, o.size, o.maxWidth);
    if (!s) return 0;
    const w = o.font.widthOfTextAtSize(s, o.size);
    const box = o.maxWidth ?? 0;
    const dx = o.align === 'right' ? box - w : o.align === 'center' ? (box - w) / 2 : 0;
    // Helvetica's cap height is ~0.72 em: put the caps' top at `top`.
    this.page.drawText(s, { x: x + dx, y: this.height - top - o.size * 0.72, size: o.size, font: o.font, color: o.color ?? BLACK });
    return w;
  }

  /** Wrapped paragraph; returns the height used. */
  paragraph(value: unknown, x: number, top: number, width: number, o: TextOptions & { leading?: number; maxLines?: number }): number {
    const lines = wrap(clean(value, o.font), o.font, o.size, width, o.maxLines);
    const leading = o.leading ?? o.size * 1.25;
    lines.forEach((line, i) => this.text(line, x, top + i * leading, { ...o, maxWidth: width }));
    return lines.length * leading;
  }

  rect(x: number, top: number, w: number, h: number, o: { fill?: RGB; stroke?: RGB; lineWidth?: number } = {}): void {
    this.page.drawRectangle({
      x,
      y: this.height - top - h,
      width: w,
      height: h,
      ...(o.fill ? { color: o.fill } : {}),
      ...(o.stroke || !o.fill ? { borderColor: o.stroke ?? BLACK, borderWidth: o.lineWidth ?? 0.75 } : {}),
    });
  }

  line(x1: number, top1: number, x2: number, top2: number, width = 0.75, color: RGB = BLACK): void {
    this.page.drawLine({ start: { x: x1, y: this.height - top1 }, end: { x: x2, y: this.height - top2 }, thickness: width, color });
  }

  /** A small square, ticked with an X when `checked`. */
  checkbox(x: number, top: number, size: number, checked: boolean): void {
    this.rect(x, top, size, size, { lineWidth: 0.6 });
    if (checked) {
      this.line(x + 1.5, top + 1.5, x + size - 1.5, top + size - 1.5, 1);
      this.line(x + size - 1.5, top + 1.5, x + 1.5, top + size - 1.5, 1);
    }
  }

  /**
   * A Code 128 symbol whose left quiet zone starts at `x`, at most `maxWidth` wide (quiet
   * zones included) and with bars no wider than `maxModule` points. Returns the width used,
   * or 0 when the text cannot be encoded.
   */
  barcode(value: string, x: number, top: number, height: number, maxWidth: number, maxModule = 1.5): number {
    let symbol;
    try {
      symbol = encodeCode128(value);
    } catch {
      return 0;
    }
    const total = symbol.modules + 2 * QUIET_ZONE_MODULES;
    const module = Math.min(maxModule, maxWidth / total);
    const left = x + QUIET_ZONE_MODULES * module;
    for (const [start, w] of barRuns(symbol)) {
      this.page.drawRectangle({ x: left + start * module, y: this.height - top - height, width: w * module, height, color: BLACK });
    }
    return total * module;
  }
}
