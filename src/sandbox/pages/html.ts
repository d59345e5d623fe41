/**
 * The frame every service page shares: escaping, the document around a page's content, and the
 * reply headers. The pages carry no script at all; their one stylesheet is inline, allowed by a
 * fresh nonce, so the Content-Security-Policy can stay at default-src 'none'.
 */
import { randomBytes } from 'node:crypto';
import { HTML_UTF8, type Reply } from '../http/reply';
import { PAGE_CSS } from './style';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Every text and attribute value on the pages goes through here: catalog names, namespaces, hosts, envelopes. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export function contentSecurityPolicy(nonce: string): string {
  return ["default-src 'none'", `style-src 'nonce-${nonce}'`, "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');
}

export interface PageOptions {
  readonly status?: number;
  readonly title: string;
  /** Breadcrumb links above the heading: [label, href], the last one without a link. */
  readonly trail?: readonly (readonly [string, string | undefined])[];
  /** Already-escaped HTML of the page's content. */
  readonly body: string;
}

// The workbench's mark (media/carrier.svg), inline so the page needs no image source.
const LOGO =
  '<svg class="logo" aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"><path d="M2 6h12v10H2z"/><path d="M14 9h4l3 3.5V16h-7z"/><circle cx="6" cy="17.5" r="1.8"/><circle cx="17" cy="17.5" r="1.8"/></svg>';

export function page(options: PageOptions): Reply {
  const nonce = randomBytes(16).toString('base64');
  const trail = (options.trail ?? [])
    .map(([label, href]) => (href ? `<a href="${esc(href)}">${esc(label)}</a>` : `<span aria-current="page">${esc(label)}</span>`))
    .join('<span class="sep" aria-hidden="true">›</span>');
  const body = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(options.title)} — Carrier sandbox</title>
<style nonce="${nonce}">${PAGE_CSS}</style>
</head>
<body>
<header class="bar">${LOGO}<span class="brand">Carrier sandbox</span>${trail ? `<nav class="trail" aria-label="Breadcrumb">${trail}</nav>` : ''}</header>
<main>
${options.body}
</main>
<footer>Served by the Carrier Workbench sandbox, an emulator of the freight-carrier LTL web service. No real shipments are created.</footer>
</body>
</html>
`;
  return {
    status: options.status ?? 200,
    contentType: HTML_UTF8,
    body,
    headers: {
      'Content-Security-Policy': contentSecurityPolicy(nonce),
      'X-Content-Type-Options': 'nosniff',
      // Not no-referrer: that also makes the browser send `Origin: null` on the page's own form
      // posts, which the SOAP test form must tell apart from another site's.
      'Referrer-Policy': 'same-origin',
      // Pages echo API keys typed into the test form; they must not linger in caches.
      'Cache-Control': 'no-store',
    },
  };
}
