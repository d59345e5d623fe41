/**
 * An accessible tab strip (WAI-ARIA tabs pattern): one tab in the Tab order, arrow keys / Home /
 * End move between tabs and activate them. Each panel is built the first time it is shown, so a
 * large raw body costs nothing until someone looks at it.
 */
import { h, icon } from './dom';
import type { TabId } from './protocol';

export interface TabSpec {
  readonly id: TabId;
  readonly label: string;
  readonly icon: string;
  readonly badge?: string;
  readonly render: (panel: HTMLElement) => void;
}

export class Tabs {
  /** The tab strip and the panels, apart: the strip stays on screen with the header (app.ts). */
  readonly list: HTMLElement;
  readonly panels: HTMLElement;
  private readonly tabs = new Map<TabId, { tab: HTMLButtonElement; panel: HTMLElement; spec: TabSpec; built: boolean }>();
  private active: TabId;

  constructor(
    private readonly specs: readonly TabSpec[],
    initial: TabId,
    private readonly onChange: (id: TabId) => void,
  ) {
    const list = h('div', { className: 'tablist', role: 'tablist', attrs: { 'aria-label': 'Result views' } });
    const panels = h('div', { className: 'tabpanels' });
    for (const spec of specs) {
      const tab = h(
        'button',
        {
          className: 'tab',
          type: 'button',
          role: 'tab',
          id: `tab-${spec.id}`,
          tabIndex: -1,
          attrs: { 'aria-controls': `panel-${spec.id}`, 'aria-selected': 'false' },
          on: { click: () => this.select(spec.id, false), keydown: (e) => this.onKey(e) },
        },
        icon(spec.icon),
        spec.label,
        spec.badge ? h('span', { className: 'badge' }, spec.badge) : null,
      );
      const panel = h('section', {
        className: 'tabpanel',
        role: 'tabpanel',
        id: `panel-${spec.id}`,
        tabIndex: 0,
        hidden: true,
        attrs: { 'aria-labelledby': `tab-${spec.id}` },
      });
      list.appendChild(tab);
      panels.appendChild(panel);
      this.tabs.set(spec.id, { tab, panel, spec, built: false });
    }
    this.list = list;
    this.panels = panels;
    this.active = this.tabs.has(initial) ? initial : specs[0].id;
    this.select(this.active, false);
  }

  get current(): TabId {
    return this.active;
  }

  has(id: TabId): boolean {
    return this.tabs.has(id);
  }

  /** Builds a panel without showing it (for work whose result must be reported at once). */
  build(id: TabId): void {
    const t = this.tabs.get(id);
    if (t && !t.built) {
      t.built = true;
      t.spec.render(t.panel);
    }
  }

  select(id: TabId, focus: boolean): void {
    const target = this.tabs.get(id);
    if (!target) return;
    for (const [tid, t] of this.tabs) {
      const on = tid === id;
      t.tab.setAttribute('aria-selected', String(on));
      t.tab.tabIndex = on ? 0 : -1;
      t.tab.classList.toggle('active', on);
      t.panel.hidden = !on;
    }
    this.build(id);
    if (focus) target.tab.focus();
    if (id !== this.active) {
      this.active = id;
      this.onChange(id);
    }
  }

  private onKey(e: KeyboardEvent): void {
    const ids = this.specs.map((s) => s.id);
    const i = ids.indexOf(this.active);
    const next =
      e.key === 'ArrowRight'
        ? ids[(i + 1) % ids.length]
        : e.key === 'ArrowLeft'
          ? ids[(i - 1 + ids.length) % ids.length]
          : e.key === 'Home'
            ? ids[0]
            : e.key === 'End'
              ? ids[ids.length - 1]
              : undefined;
    if (!next) return;
    e.preventDefault();
    this.select(next, true);
  }
}
