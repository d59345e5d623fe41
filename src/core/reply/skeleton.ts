/**
 * Large replies are mostly one or two huge base64 text nodes (a 15 MB PDF in a 20 MB reply). The
 * XML parser walks text character by character, twice (validation, then parsing), so those
 * nodes are cut out before parsing and put back afterwards: the parser sees a small skeleton, and
 * the big values stay slices of the reply text rather than fresh copies.
 *
 * Only a run with no `<`, `>` or `&` between a `>` and the next `<` is cut out. Such a run is
 * plain character data wherever it sits (element content, CDATA, a comment), and the placeholder
 * has the same property, so the skeleton parses exactly as the whole text would.
 */
import type { XmlElement } from '../xml/dom';

const MIN_RUN = 32 * 1024;
const OPEN = '\uE000';
const CLOSE = '\uE001';

export interface Skeleton {
  readonly text: string;
  readonly blobs: readonly string[];
}

export function skeletonize(text: string): Skeleton {
  if (text.length < MIN_RUN || text.includes(OPEN)) return { text, blobs: [] };
  const blobs: string[] = [];
  const parts: string[] = [];
  let copied = 0;
  let lt = text.indexOf('<');
  while (lt >= 0) {
    const next = text.indexOf('<', lt + 1);
    const end = next < 0 ? text.length : next;
    if (next >= 0 && end - lt > MIN_RUN) {
      const gt = text.indexOf('>', lt);
      if (gt >= 0 && gt < end && end - gt - 1 >= MIN_RUN) {
        const amp = text.indexOf('&', gt + 1);
        const gt2 = text.indexOf('>', gt + 1);
        if ((amp < 0 || amp >= end) && (gt2 < 0 || gt2 >= end)) {
          parts.push(text.slice(copied, gt + 1), `${OPEN}${blobs.length}${CLOSE}`);
          blobs.push(text.slice(gt + 1, end));
          copied = end;
        }
      }
    }
    lt = next;
  }
  if (!blobs.length) return { text, blobs };
  parts.push(text.slice(copied));
  return { text: parts.join(''), blobs };
}

const TOKEN = /\uE000(\d+)\uE001/g;

/** Puts the cut-out runs back into the element texts of a parsed skeleton. */
export function restore(el: XmlElement, blobs: readonly string[]): XmlElement {
  if (!blobs.length) return el;
  let children = el.children;
  for (let i = 0; i < children.length; i++) {
    const c = restore(children[i], blobs);
    if (c !== children[i]) {
      if (children === el.children) children = [...children];
      (children as XmlElement[])[i] = c;
    }
  }
  let text = el.text;
  if (text.includes(OPEN)) {
    const whole = /^\uE000(\d+)\uE001$/.exec(text);
    // The usual case, a text node that is one blob, keeps the slice itself: no copy.
    text = whole ? blobs[Number(whole[1])] : text.replace(TOKEN, (_m, n: string) => blobs[Number(n)]);
  }
  return text === el.text && children === el.children ? el : { ...el, text, children };
}
