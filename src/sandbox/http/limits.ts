/**
 * What one request may cost the sandbox. Every figure is far above what a real client of the
 * service sends (a 500-item bill of lading is 111 KB of SOAP; an HTTP binding call is a handful of
 * short fields) and far below what would let one client take the server from the others.
 */

export interface SandboxLimits {
  /** SOAP 1.1 and 1.2 bodies (and the SOAP test form, whose envelope field is one). */
  readonly soapBodyBytes: number;
  /** HTTP POST binding bodies: form fields of simple values. */
  readonly formBodyBytes: number;
  /**
   * Fields of a form body or query string. ASP.NET refuses more than 1,000
   * (aspnet:MaxHttpCollectionKeys, its answer to hash-flooding forms); so does the sandbox.
   */
  readonly parameters: number;
  /** Request header lines; browsers send about 20. */
  readonly headers: number;
  /** From the first byte of a request to the end of its headers (node:http's headersTimeout). */
  readonly headersTimeoutMs: number;
  /** From the start of reading a body to its last byte: a client dripping bytes is cut off here. */
  readonly bodyTimeoutMs: number;
  /**
   * After a refusal that leaves part of the request unread, how long the rest is still read and
   * thrown away before the connection is closed, so that the client reads the refusal instead
   * of a reset (the "lingering close" of web servers).
   */
  readonly lingerMs: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  soapBodyBytes: 8 * 1024 * 1024,
  formBodyBytes: 1024 * 1024,
  parameters: 1000,
  headers: 100,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  lingerMs: 2_000,
};

export function limitsOf(overrides: Partial<SandboxLimits> | undefined): SandboxLimits {
  const out = { ...DEFAULT_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(out)) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`sandbox limit ${name} must be a positive number, got ${value}`);
  }
  return out;
}

/** Bytes as people read them in a refusal: "8 MiB", "1,500 bytes". */
export function byteText(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n.toLocaleString('en-US')} bytes`;
}
