/**
 * A reply as a value: routes build one, the server sends it (and fault injection may spoil it
 * on the way out), so no route writes to the socket itself.
 */
export interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
  /** A reason phrase other than node's for the status (a replayed reply's, as recorded). */
  readonly statusText?: string;
  /** A replayed reply (src/sandbox/replay/): sent with its own headers alone, none of the sandbox's added; no Content-Type when `contentType` is empty. */
  readonly recorded?: boolean;
}

export const XML_UTF8 = 'text/xml; charset=utf-8';
export const SOAP12_UTF8 = 'application/soap+xml; charset=utf-8';
export const TEXT_UTF8 = 'text/plain; charset=utf-8';
export const HTML_UTF8 = 'text/html; charset=utf-8';

export const textReply = (status: number, text: string, headers?: Record<string, string>): Reply => ({ status, contentType: TEXT_UTF8, body: text, headers });
export const notFound = (path: string): Reply => textReply(404, `Not found: ${path}`);
