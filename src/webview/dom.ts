/**
 * The only way the webview builds DOM. Text goes in as text nodes, never innerHTML: every value in
 * a reply is data from a server and must never become markup. Invisible and bidi control
 * characters in it are shown as markers (visibleText.ts) rather than left to act on the page.
 */
import { visibleNode, visibleString } from './visibleText';

/** Arrays are flattened, so a view can write an optional group of children in place. */
type Child = Node | string | number | false | null | undefined | readonly Child[];

export interface Props {
  className?: string;
  id?: string;
  title?: string;
  role?: string;
  tabIndex?: number;
  hidden?: boolean;
  type?: string;
  /** aria-* and data-* attributes (names without the prefix are taken as given). */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (e: HTMLElementEventMap[K]) => void }>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.className) el.className = props.className;
  if (props.id) el.id = props.id;
  if (props.title) el.title = visibleString(props.title);
  if (props.role) el.setAttribute('role', props.role);
  if (props.tabIndex !== undefined) el.tabIndex = props.tabIndex;
  if (props.hidden) el.hidden = true;
  if (props.type) el.setAttribute('type', props.type);
  // What is read out (aria-*) shows hidden characters as the page does; data-* stays the value itself.
  for (const [k, v] of Object.entries(props.attrs ?? {}))
    if (v !== undefined && v !== false) el.setAttribute(k, v === true ? '' : k.startsWith('aria-') ? visibleString(String(v)) : String(v));
  for (const [event, handler] of Object.entries(props.on ?? {})) el.addEventListener(event, handler as EventListener);
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, ...(c as Child[]));
    else parent.appendChild(typeof c === 'string' || typeof c === 'number' ? visibleNode(String(c)) : (c as Node));
  }
}

export function text(className: string, value: string): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = className;
  span.appendChild(visibleNode(value));
  return span;
}

/** A codicon glyph; decorative unless given a label. */
export function icon(name: string, label?: string): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = `codicon codicon-${name}`;
  if (label) {
    span.setAttribute('role', 'img');
    span.setAttribute('aria-label', label);
  } else {
    span.setAttribute('aria-hidden', 'true');
  }
  return span;
}

export function button(
  label: string,
  iconName: string | undefined,
  onClick: () => void,
  options: { title?: string; secondary?: boolean; iconOnly?: boolean } = {},
): HTMLButtonElement {
  const b = h('button', {
    className: `btn${options.secondary ? ' btn-secondary' : ''}${options.iconOnly ? ' btn-icon' : ''}`,
    type: 'button',
    title: options.title ?? (options.iconOnly ? label : undefined),
    attrs: options.iconOnly ? { 'aria-label': label } : undefined,
    on: { click: () => onClick() },
  });
  if (iconName) b.appendChild(icon(iconName));
  if (!options.iconOnly) b.appendChild(document.createTextNode(label));
  return b;
}

/**
 * An action that reads like a link. Not an `<a href="#">`: VS Code's webview host scrolls the
 * page to the top on any click of such a link, and these are actions, not navigation.
 */
export function linkButton(label: Node | string, onClick: () => void, title?: string, className?: string): HTMLButtonElement {
  return h('button', { className: className ? `link ${className}` : 'link', type: 'button', title, on: { click: () => onClick() } }, label);
}

export function clear(el: Element): void {
  el.replaceChildren();
}
