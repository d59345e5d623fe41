/** The reply's decoded documents: PDFs in a viewer each, anything else (or a document core did not inspect) as a file to save. */
import type { Exchange } from '../../core/view';
import type { DocumentRenderReport } from '../protocol';
import { button, h, icon } from '../dom';
import { formatBytes } from '../format';
import { createPdfViewer } from '../pdf/pdfViewer';
import { post } from '../vscodeApi';

/** Renders every document; resolves when each has drawn its first page (or failed). */
export function renderDocuments(panel: HTMLElement, exchange: Exchange): Promise<DocumentRenderReport[]> {
  if (exchange.documents.length === 0) {
    panel.append(h('p', { className: 'muted' }, 'This reply carries no documents.'));
    return Promise.resolve([]);
  }
  const reports = exchange.documents.map((doc, index) => {
    const save = () => post({ type: 'saveDocument', exchangeId: exchange.id, index });
    if (doc.base64 === '') {
      panel.append(
        h(
          'p',
          { className: 'notice', attrs: { 'data-doc-path': doc.path } },
          icon('history'),
          ` ${doc.name} (${formatBytes(doc.size)}) was too large to keep in history. Send the request again to see it.`,
        ),
      );
      return Promise.resolve<DocumentRenderReport>({ path: doc.path, pages: doc.pages ?? 0, pagesRendered: 0, nonBlank: false, error: 'not kept in history' });
    }
    if (doc.inspected === false) {
      // Core refused it (past a decoding budget, docs/wire.md#budgets): pdf.js is never handed it; Save keeps the bytes.
      const reason = `not previewed: ${doc.notInspected ?? 'past a decoding budget'}`;
      panel.append(
        h(
          'div',
          { className: 'pdf-toolbar', attrs: { 'data-doc-path': doc.path, 'data-not-inspected': 'true' } },
          icon('warning'),
          h('strong', {}, doc.name),
          h('span', { className: 'muted' }, `${formatBytes(doc.size)} · ${doc.path}`),
          h('span', { className: 'spacer' }),
          button('Save…', 'save', save, { secondary: true }),
        ),
        h('p', { className: 'notice warn', attrs: { 'data-doc-path': doc.path } }, icon('warning'), ` ${doc.name} is ${reason}. Save it to open it elsewhere.`),
      );
      return Promise.resolve<DocumentRenderReport>({ path: doc.path, pages: 0, pagesRendered: 0, nonBlank: false, error: reason });
    }
    if (doc.mediaType !== 'application/pdf') {
      panel.append(
        h(
          'div',
          { className: 'pdf-toolbar', attrs: { 'data-doc-path': doc.path } },
          icon('file-binary'),
          h('strong', {}, doc.name),
          h('span', { className: 'muted' }, `${formatBytes(doc.size)} · ${doc.path}`),
          h('span', { className: 'spacer' }),
          button('Save…', 'save', save, { secondary: true }),
        ),
      );
      return Promise.resolve<DocumentRenderReport>({ path: doc.path, pages: 0, pagesRendered: 0, nonBlank: false });
    }
    const viewer = createPdfViewer(doc, save);
    viewer.element.dataset.docPath = doc.path;
    panel.append(viewer.element);
    return viewer.firstRender;
  });
  return Promise.all(reports);
}
