/** Error pages in HTML (an ASP.NET yellow screen, a proxy's 502 page) → one readable line. */

/**
 * Where the first character that is not white space is, or -1: a search rather than trim(), so
 * a megabyte of body is not copied to learn it is not blank; most bodies start with `<`.
 */
export function firstNonSpace(text: string): number {
  const c = text.charCodeAt(0);
  return c > 0x20 && c < 0x7f ? 0 : text.search(/\S/);
}

export function looksLikeHtml(text: string, media: string): boolean {
  if (media === 'text/html' || media === 'application/xhtml+xml') return true;
  // An XML declaration or a start tag other than <h…> first: no HTML page, and nothing is cut out to say so.
  const first = firstNonSpace(text);
  const c = first < 0 ? '' : text.slice(first + 1, first + 2);
  if (text[first] === '<' && (c === '?' || (/[a-z]/i.test(c) && c !== 'h' && c !== 'H'))) return false;
  const head = text.slice(0, 512).trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || (head.startsWith('<head') && head.includes('<title'));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function plain(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
        : (ENTITIES[e.toLowerCase()] ?? m),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(s: string, n = 200): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** The page's title, and its first heading when that says more. */
export function summarizeHtml(text: string): string {
  const head = text.slice(0, 64 * 1024);
  const title = plain(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(head)?.[1] ?? '');
  const heading = plain(/<h[12][^>]*>([\s\S]*?)<\/h[12]>/i.exec(head)?.[1] ?? '');
  const parts = [title, heading && heading !== title ? heading : ''].filter(Boolean);
  if (parts.length) return clip(parts.join(' — '));
  return clip(plain(head)) || '(an empty page)';
}
