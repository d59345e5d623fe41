/**
 * pdf.js set up for a VS Code webview: the worker comes from the extension's dist folder (its URI
 * is handed over in a data attribute), eval stays off (the CSP forbids it), and the standard
 * fonts come from dist too, so nothing is fetched from outside.
 */
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';

let configured = false;

function configure(): void {
  if (configured) return;
  const workerSrc = document.body.dataset.pdfWorker;
  if (workerSrc) GlobalWorkerOptions.workerSrc = workerSrc;
  configured = true;
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  configure();
  return getDocument({
    data: bytes,
    isEvalSupported: false,
    standardFontDataUrl: document.body.dataset.standardFonts,
    // Links and forms in a label PDF mean nothing here, and scripting needs eval.
    enableXfa: false,
  }).promise;
}
