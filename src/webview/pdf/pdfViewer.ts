/**
 * One PDF from a reply, shown a page at a time on a canvas, with page navigation, zoom and
 * Save PDF…. Pages render on demand, so a 300-page document costs one page at a time.
 */
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import type { DecodedDocument } from '../../core/view';
import type { DocumentRenderReport } from '../protocol';
import { button, h, icon } from '../dom';
import { formatBytes } from '../format';
import { base64ToBytes, openPdf } from './pdfjs';

const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

export interface PdfViewerHandle {
  readonly element: HTMLElement;
  /** Resolves after the first page is drawn (or failed), with what was drawn. */
  readonly firstRender: Promise<DocumentRenderReport>;
}

export function createPdfViewer(doc: DecodedDocument, onSave: () => void): PdfViewerHandle {
  const canvas = h('canvas', { className: 'pdf-canvas', attrs: { role: 'img', 'aria-label': `${doc.name}, page 1` } });
  const pageLabel = h('span', { className: 'page-label', attrs: { 'aria-live': 'polite' } }, 'Loading…');
  const zoomLabel = h('span', { className: 'zoom-label muted' }, '');
  const prev = button('Previous page', 'chevron-left', () => void go(page - 1), { iconOnly: true, title: 'Previous page (PageUp)' });
  const next = button('Next page', 'chevron-right', () => void go(page + 1), { iconOnly: true, title: 'Next page (PageDown)' });
  const zoomOut = button('Zoom out', 'zoom-out', () => void zoomBy(-1), { iconOnly: true, title: 'Zoom out (-)' });
  const zoomIn = button('Zoom in', 'zoom-in', () => void zoomBy(1), { iconOnly: true, title: 'Zoom in (+)' });
  const fit = button('Fit width', 'screen-full', () => void fitWidth(), { iconOnly: true, title: 'Fit to width (0)' });
  const error = h('p', { className: 'notice error', hidden: true });
  const stage = h(
    'div',
    {
      className: 'pdf-stage',
      tabIndex: 0,
      attrs: { 'aria-label': `${doc.name} viewer; PageUp and PageDown turn pages, + and - zoom` },
      on: { keydown: (e) => onKey(e) },
    },
    canvas,
  );

  const element = h(
    'section',
    { className: 'pdf-viewer', attrs: { 'aria-label': doc.name } },
    h(
      'div',
      { className: 'pdf-toolbar', role: 'toolbar', attrs: { 'aria-label': `${doc.name} controls` } },
      h(
        'span',
        { className: 'doc-title', title: `${doc.name} · ${formatBytes(doc.size)} · ${doc.path}` },
        icon('file-pdf'),
        // Its own tooltip: an ellipsis must never be the only way to read a cut name.
        h('strong', { className: 'doc-name', title: doc.name }, doc.name),
        h('span', { className: 'muted' }, `${formatBytes(doc.size)} · ${doc.path}`),
      ),
      h('span', { className: 'tool-group' }, prev, pageLabel, next),
      h('span', { className: 'tool-group' }, zoomOut, zoomLabel, zoomIn, fit),
      button('Save PDF…', 'save', onSave, { secondary: true }),
    ),
    error,
    stage,
  );

  let pdf: PDFDocumentProxy | undefined;
  let page = 1;
  let scale = 1;
  let task: RenderTask | undefined;
  const drawn = new Set<number>();
  let nonBlank = false;

  const updateControls = (): void => {
    const pages = pdf?.numPages ?? 0;
    pageLabel.textContent = pages ? `Page ${page} of ${pages}` : '';
    prev.disabled = page <= 1;
    next.disabled = page >= pages;
    zoomLabel.textContent = `${Math.round(scale * 100)}%`;
    canvas.setAttribute('aria-label', `${doc.name}, page ${page} of ${pages}`);
  };

  async function draw(): Promise<void> {
    if (!pdf) return;
    task?.cancel();
    const p = await pdf.getPage(page);
    const viewport = p.getViewport({ scale });
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${Math.floor(viewport.width)}px`;
    canvas.style.height = `${Math.floor(viewport.height)}px`;
    const context = canvas.getContext('2d', { willReadFrequently: false })!;
    task = p.render({ canvas, canvasContext: context, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
    try {
      await task.promise;
    } catch (err) {
      if ((err as { name?: string }).name === 'RenderingCancelledException') return;
      throw err;
    }
    drawn.add(page);
    if (!nonBlank) nonBlank = canvasHasInk(canvas);
    updateControls();
  }

  async function go(target: number): Promise<void> {
    if (!pdf || target < 1 || target > pdf.numPages || target === page) return;
    page = target;
    updateControls();
    await draw().catch(showError);
  }

  async function zoomBy(direction: number): Promise<void> {
    // From a fitted scale between steps, go to the nearest step in that direction.
    const target = direction > 0 ? ZOOM_STEPS.find((z) => z > scale + 1e-6) : [...ZOOM_STEPS].reverse().find((z) => z < scale - 1e-6);
    if (target === undefined) return;
    scale = target;
    updateControls();
    await draw().catch(showError);
  }

  async function fitWidth(): Promise<void> {
    if (!pdf) return;
    const p = await pdf.getPage(page);
    const width = stage.clientWidth - 24;
    if (width > 0) scale = Math.max(0.25, Math.min(4, width / p.getViewport({ scale: 1 }).width));
    updateControls();
    await draw().catch(showError);
  }

  function onKey(e: KeyboardEvent): void {
    const actions: Record<string, () => Promise<void>> = {
      PageDown: () => go(page + 1),
      PageUp: () => go(page - 1),
      Home: () => go(1),
      End: () => go(pdf?.numPages ?? 1),
      '+': () => zoomBy(1),
      '=': () => zoomBy(1),
      '-': () => zoomBy(-1),
      '0': () => fitWidth(),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    void action();
  }

  function showError(err: unknown): void {
    error.hidden = false;
    error.replaceChildren(
      icon('error'),
      ` This document could not be displayed: ${err instanceof Error ? err.message : String(err)}. Save it to open it elsewhere.`,
    );
  }

  const firstRender = (async (): Promise<DocumentRenderReport> => {
    try {
      // A document core did not inspect (past a decoding budget) never reaches pdf.js; documentsView.ts shows why instead.
      if (doc.inspected === false) throw new Error(`not previewed: ${doc.notInspected ?? 'past a decoding budget'}`);
      pdf = await openPdf(base64ToBytes(doc.base64));
      // Start at 100%, or smaller when the panel is narrower than the page (never larger).
      const firstWidth = (await pdf.getPage(1)).getViewport({ scale: 1 }).width;
      // A hidden tab has no width yet; the page's width is the next best guess.
      const available = (stage.clientWidth || document.body.clientWidth - 32) - 24;
      if (available > 0 && firstWidth > available) scale = Math.max(0.25, available / firstWidth);
      updateControls();
      await draw();
      return { path: doc.path, pages: pdf.numPages, pagesRendered: drawn.size, nonBlank };
    } catch (err) {
      showError(err);
      pageLabel.textContent = '';
      return { path: doc.path, pages: pdf?.numPages ?? 0, pagesRendered: drawn.size, nonBlank, error: err instanceof Error ? err.message : String(err) };
    }
  })();

  return { element, firstRender };
}

/** True when the canvas holds more than one colour: a page that actually painted something. */
function canvasHasInk(canvas: HTMLCanvasElement): boolean {
  const ctx = canvas.getContext('2d');
  if (!ctx || canvas.width === 0 || canvas.height === 0) return false;
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const [r, g, b, a] = [data[0], data[1], data[2], data[3]];
  for (let i = 4; i < data.length; i += 4) {
    if (data[i] !== r || data[i + 1] !== g || data[i + 2] !== b || data[i + 3] !== a) return true;
  }
  return false;
}
