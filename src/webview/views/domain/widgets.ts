/** Pieces the Summary's operation views share: copyable numbers, headings, cards. */
import { h, icon } from '../../dom';
import { copy } from '../../vscodeApi';

/**
 * A one-click copy: the text goes to the extension (the webview cannot write the clipboard in
 * every host), and the button says it worked, for sight and for screen readers.
 */
export function copyButton(value: string, what: string, options: { label?: string; showLabel?: boolean } = {}): HTMLButtonElement {
  const label = options.label ?? `Copy ${what}`;
  const glyph = icon('copy');
  const b = h(
    'button',
    {
      className: options.showLabel ? 'btn btn-secondary copy' : 'btn btn-icon copy',
      type: 'button',
      title: `${label} (${value})`,
      attrs: { 'aria-label': `${label}: ${value}`, 'data-copy': value },
      on: {
        click: () => {
          copy(value, what);
          glyph.className = 'codicon codicon-check';
          b.setAttribute('aria-label', `Copied ${what}: ${value}`);
          setTimeout(() => {
            glyph.className = 'codicon codicon-copy';
            b.setAttribute('aria-label', `${label}: ${value}`);
          }, 1500);
        },
      },
    },
    glyph,
  );
  if (options.showLabel) b.append(label);
  return b;
}

/** A value worth copying, in monospace, with its copy button beside it. */
export function copyable(value: string, what: string): HTMLElement {
  return h('span', { className: 'copyable' }, h('code', {}, value), copyButton(value, what));
}

/** A section of the Summary owned by an operation view, named for assistive technology. */
export function domainSection(id: string, heading: string, ...children: Array<Node | null | false | undefined>): HTMLElement {
  const headingId = `domain-${id}-heading`;
  return h(
    'section',
    { className: `domain domain-${id}`, attrs: { 'aria-labelledby': headingId, 'data-domain': id } },
    h('h2', { id: headingId }, heading),
    ...children,
  );
}

export function chip(label: string, title?: string, className = ''): HTMLElement {
  return h('span', { className: `chip ${className}`.trim(), title }, label);
}

/**
 * At most `max` of a long list are drawn (a trace of thousands of PROs must not stall the panel);
 * the rest are counted, and the Parsed tab has them all.
 */
export function capped<T>(items: readonly T[], max: number, noun: (n: number) => string): { shown: readonly T[]; more: HTMLElement | null } {
  if (items.length <= max) return { shown: items, more: null };
  return { shown: items.slice(0, max), more: h('p', { className: 'muted more-note' }, `${noun(items.length - max)} more in the Parsed tab.`) };
}
