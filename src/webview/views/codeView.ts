/** Read-only code blocks: XML pretty-printed with theme colours, or plain text as received. */
import { h } from '../dom';
import { visibleNode } from '../visibleText';
import { looksLikeXml, prettyLines } from '../../core/view';

/** Colouring every token of a bigger body would stall the page; past this, plain text only. */
export const PRETTY_LIMIT_CHARS = 300_000;

export function xmlBlock(xml: string, label: string): HTMLElement {
  const code = h('code');
  const frag = document.createDocumentFragment();
  for (const line of prettyLines(xml)) {
    frag.appendChild(document.createTextNode('  '.repeat(line.depth)));
    for (const p of line.pieces) {
      const span = document.createElement('span');
      span.className = `x-${p.cls}`;
      span.appendChild(visibleNode(p.text));
      frag.appendChild(span);
    }
    frag.appendChild(document.createTextNode('\n'));
  }
  code.appendChild(frag);
  return h('pre', { className: 'code', tabIndex: 0, attrs: { 'aria-label': label } }, code);
}

export function rawBlock(textValue: string, label: string): HTMLElement {
  const code = h('code');
  code.appendChild(visibleNode(textValue));
  return h('pre', { className: 'code raw', tabIndex: 0, attrs: { 'aria-label': label } }, code);
}

/** Pretty when it is XML and small enough, otherwise as received. */
export function bodyBlock(body: string, label: string): HTMLElement {
  return looksLikeXml(body) && body.length <= PRETTY_LIMIT_CHARS ? xmlBlock(body, label) : rawBlock(body, label);
}
