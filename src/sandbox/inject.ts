/**
 * Fault injection for testing clients, honoured only when the sandbox was started with
 * allowInjection. The request header `X-Carrier-Inject` holds directives separated by commas:
 *
 *   delay=MS       wait MS milliseconds before handling the request (at most 120000)
 *   fault          answer with a server fault (SOAP) or a plain 500 (HTTP bindings); nothing is done
 *   html500        answer with an HTML error page and status 500, as a broken IIS front end does
 *   truncate       send only the first half of the real reply (well framed, so the XML is cut)
 *   slow-body[=MS] send the real reply in small pieces spread over MS milliseconds (default 2000)
 *   reset          read the request, then reset the connection without any reply
 */
export const INJECT_HEADER = 'x-carrier-inject';

export interface Injection {
  readonly delayMs?: number;
  readonly fault?: boolean;
  readonly html500?: boolean;
  readonly truncate?: boolean;
  readonly slowBodyMs?: number;
  readonly reset?: boolean;
}

export class InjectionError extends Error {}

/** The longest injected wait: the server allows for it in its own request timeout (server.ts). */
export const MAX_INJECTED_MS = 120_000;

function ms(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new InjectionError(`${name} needs a value in milliseconds, e.g. ${name}=500`);
    return fallback;
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > MAX_INJECTED_MS)
    throw new InjectionError(`${name}=${value}: expected whole milliseconds from 0 to ${MAX_INJECTED_MS}`);
  return n;
}

/** Undefined when there is no header; throws InjectionError for a directive it does not know. */
export function parseInjection(header: string | string[] | undefined): Injection | undefined {
  const text = (Array.isArray(header) ? header.join(',') : header)?.trim();
  if (!text) return undefined;
  const out: { -readonly [K in keyof Injection]: Injection[K] } = {};
  for (const part of text
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? undefined : part.slice(eq + 1).trim();
    switch (name) {
      case 'delay':
        out.delayMs = ms(name, value);
        break;
      case 'fault':
        out.fault = true;
        break;
      case 'html500':
        out.html500 = true;
        break;
      case 'truncate':
        out.truncate = true;
        break;
      case 'slow-body':
        out.slowBodyMs = ms(name, value, 2000);
        break;
      case 'reset':
        out.reset = true;
        break;
      default:
        throw new InjectionError(`Unknown injection directive "${name}". Known: delay=MS, fault, html500, truncate, slow-body[=MS], reset.`);
    }
  }
  return out;
}

/** The error page an IIS front end shows when the application behind it fails. */
export const HTML_500 = `<!DOCTYPE html>
<html><head><title>Runtime Error</title></head>
<body><h1>Server Error in '/' Application.</h1>
<h2><i>Runtime Error</i></h2>
<p><b>Description:</b> An application error occurred on the server (injected by the Carrier sandbox).</p>
</body></html>
`;
