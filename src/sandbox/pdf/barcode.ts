/**
 * Code 128 (ISO/IEC 15417) encoder, written out so the PDFs need no barcode dependency and the
 * symbol can be drawn as plain rectangles.
 *
 * Only code sets B (printable ASCII 32-126) and C (digit pairs) are used: PRO, BOL and PO
 * numbers never need control characters. Set C packs two digits per symbol, so an all-digit
 * PRO such as 056391174 starts in C and switches to B only for its odd last digit; that keeps
 * the symbol short enough to scan from a 4" label at a comfortable bar width.
 */

/**
 * Bar/space widths in modules for symbol values 0-106, from the standard's symbol table.
 * Each pattern starts with a bar and alternates; 0-105 have 3 bars and 3 spaces (11 modules),
 * 106 is the stop pattern with its final bar (13 modules).
 */
export const CODE128_PATTERNS: readonly string[] = [
  '212222',
  '222122',
  '222221',
  '121223',
  '121322',
  '131222',
  '122213',
  '122312',
  '132212',
  '221213',
  '221312',
  '231212',
  '112232',
  '122132',
  '122231',
  '113222',
  '123122',
  '123221',
  '223211',
  '221132',
  '221231',
  '213212',
  '223112',
  '312131',
  '311222',
  '321122',
  '321221',
  '312212',
  '322112',
  '322211',
  '212123',
  '212321',
  '232121',
  '111323',
  '131123',
  '131321',
  '112313',
  '132113',
  '132311',
  '211313',
  '231113',
  '231311',
  '112133',
  '112331',
  '132131',
  '113123',
  '113321',
  '133121',
  '313121',
  '211331',
  '231131',
  '213113',
  '213311',
  '213131',
  '311123',
  '311321',
  '331121',
  '312113',
  '312311',
  '332111',
  '314111',
  '221411',
  '431111',
  '111224',
  '111422',
  '121124',
  '121421',
  '141122',
  '141221',
  '112214',
  '112412',
  '122114',
  '122411',
  '142112',
  '142211',
  '241211',
  '221114',
  '413111',
  '241112',
  '134111',
  '111242',
  '121142',
  '121241',
  '114212',
  '124112',
  '124211',
  '411212',
  '421112',
  '421211',
  '212141',
  '214121',
  '412121',
  '111143',
  '111341',
  '131141',
  '114113',
  '114311',
  '411113',
  '411311',
  '113141',
  '114131',
  '311141',
  '411131',
  '211412',
  '211214',
  '211232',
  '2331112',
];

export const CODE_C = 99;
export const CODE_B = 100;
export const START_B = 104;
export const START_C = 105;
export const STOP = 106;

/** Modules of clear space each side; the standard asks for at least 10. */
export const QUIET_ZONE_MODULES = 10;

export interface Code128Symbol {
  readonly text: string;
  /** Symbol values in order: start, data (with set switches), check, stop. */
  readonly values: readonly number[];
  readonly checksum: number;
  /** Element widths in modules, bar first, alternating bar/space, ending with the stop's final bar. */
  readonly widths: readonly number[];
  /** Total width in modules, without quiet zones. */
  readonly modules: number;
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

function digitRun(text: string, from: number): number {
  let n = 0;
  while (isDigit(text[from + n])) n++;
  return n;
}

/** Symbol values for `text` with the set choices described in the module comment. */
function symbolValues(text: string): number[] {
  const values: number[] = [];
  let set: 'B' | 'C';
  let i = 0;
  const leading = digitRun(text, 0);
  // Set C pays off from 4 leading digits, or when the whole text is an even run of digits.
  if (leading >= 4 || (leading === text.length && leading % 2 === 0)) {
    set = 'C';
    values.push(START_C);
  } else {
    set = 'B';
    values.push(START_B);
  }
  while (i < text.length) {
    if (set === 'C') {
      if (digitRun(text, i) >= 2) {
        values.push(Number(text.slice(i, i + 2)));
        i += 2;
        continue;
      }
      values.push(CODE_B);
      set = 'B';
      continue;
    }
    const run = digitRun(text, i);
    // In B, a run of 6+ digits (or 4+ ending the text) is worth the switch to C; an odd run
    // sends its first digit in B so C gets whole pairs.
    if (run >= 6 || (run >= 4 && i + run === text.length)) {
      if (run % 2 === 1) {
        values.push(text.charCodeAt(i) - 32);
        i++;
      }
      values.push(CODE_C);
      set = 'C';
      continue;
    }
    values.push(text.charCodeAt(i) - 32);
    i++;
  }
  return values;
}

/**
 * Encodes printable ASCII text as Code 128. Throws a RangeError for empty text or characters
 * outside 32-126, since those cannot be shown as the human-readable line either.
 */
export function encodeCode128(text: string): Code128Symbol {
  if (text.length === 0) throw new RangeError('Code 128: nothing to encode');
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch.length !== 1 || code < 32 || code > 126) throw new RangeError(`Code 128: cannot encode character ${JSON.stringify(ch)}`);
  }
  const data = symbolValues(text);
  // Check symbol: start value plus each following value times its position, modulo 103.
  const checksum = data.reduce((sum, v, pos) => sum + v * Math.max(pos, 1), 0) % 103;
  const values = [...data, checksum, STOP];
  const widths = values.flatMap((v) => [...CODE128_PATTERNS[v]!].map(Number));
  return { text, values, checksum, widths, modules: widths.reduce((a, b) => a + b, 0) };
}

/** Bars as [start, width] in modules from the symbol's left edge (spaces are the gaps). */
export function barRuns(symbol: Code128Symbol): Array<readonly [number, number]> {
  const runs: Array<readonly [number, number]> = [];
  let x = 0;
  symbol.widths.forEach((w, i) => {
    if (i % 2 === 0) runs.push([x, w]);
    x += w;
  });
  return runs;
}
