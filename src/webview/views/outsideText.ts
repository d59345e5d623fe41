/**
 * A value from outside (a fault string, an error message, a finding) inside the panel's own words.
 * It is isolated (`<bdi>`), so right-to-left text in it cannot reorder the words around it, and a
 * very long one is cut at CLAMP_CHARS with "Show all": a 50,000-character fault string must not
 * become a wall of text, nor, unbroken, a page half a million pixels wide (panel.css wraps it).
 */
import { append, h } from '../dom';

export const CLAMP_CHARS = 500;

export function outsideText(value: string, max = CLAMP_CHARS): HTMLElement {
  const shown = h('bdi', { className: 'outside' });
  if (value.length <= max) {
    append(shown, value);
    return shown;
  }
  const more = `Show all ${value.length.toLocaleString('en-US')} characters`;
  const toggle = h('button', { className: 'link show-more', type: 'button', attrs: { 'aria-expanded': 'false' } }, more);
  const body = h('span', { className: 'clamped-text' }, `${value.slice(0, max)}…`);
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    body.replaceChildren();
    append(body, open ? value : `${value.slice(0, max)}…`);
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? 'Show less' : more;
  });
  append(shown, body, ' ', toggle);
  return shown;
}
