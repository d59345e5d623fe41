/**
 * What core touches outside itself — the file system, environment variables, the clock, the HTTP
 * dispatchers — handed in by the face that calls it, in one object: the CLI, the extension's
 * engine, the sandbox and the tests each make theirs (`nodeContext()`, src/host/node.ts) and
 * close it when they are done. Core imports no `node:fs`, reads no `process.env`, starts no
 * connection pool of its own (docs/architecture.md#core-touches-nothing-itself).
 *
 * A function names the part it needs (`Pick<CoreContext, 'files'>`); callers pass the one object.
 * State that depends on the outside world (a stored contract read at a file's stamp, the pooled
 * dispatchers) belongs to the context's parts, so it goes when the face drops its context.
 */
import type { Dispatcher } from 'undici';

/** What a file or folder is, as far as core asks (links followed). */
export interface FileStat {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  /** The same for two paths of one file or folder (device and inode): how a walk knows a folder it has seen. */
  readonly id: string;
}

/** One entry of a folder, as listing it says (a symbolic link is not followed). */
export interface FolderEntry {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly isSymbolicLink: boolean;
}

/**
 * A bounded read of one file: its bytes, or why they were not read. Never waits on a FIFO or a
 * device (only a regular file is read), never holds more than `maxBytes` (+1 to know it is over).
 */
export type BoundedRead =
  | { readonly bytes: Uint8Array; readonly refused?: undefined }
  | { readonly refused: 'not-a-file'; readonly bytes?: undefined }
  | { readonly refused: 'too-large'; readonly size: number; readonly bytes?: undefined };

/** The file system, synchronous: a run reads thousands of small files before its first request. */
export interface CoreFiles {
  /** Undefined when the path cannot be stat'ed (absent, a broken link, no permission). */
  stat(file: string): FileStat | undefined;
  exists(file: string): boolean;
  /** The path with every link resolved; the path itself, resolved, when that fails. */
  realpath(file: string): string;
  /** Throws (with the system's message) when the folder cannot be read. */
  list(folder: string): FolderEntry[];
  /** Throws (with the system's message) when the file cannot be opened. */
  readBounded(file: string, maxBytes: number): BoundedRead;
  /** Replaces the file's text in place (links and permissions kept). */
  writeText(file: string, text: string): void;
  /** Writes the file whole or not at all (a reader never sees half of it), making its folder. */
  writeTextAtomically(file: string, text: string): void;
}

/** The wall clock: milliseconds since the epoch. */
export interface CoreClock {
  now(): number;
}

/** TLS settings with file paths made absolute (relative to the environments file). */
export interface TlsSettings {
  readonly caPath?: string;
  readonly certPath?: string;
  readonly keyPath?: string;
  readonly rejectUnauthorized: boolean;
}

/** Where a send's connections come from: one pooled dispatcher per distinct transport setting. */
export interface TransportSettings {
  readonly tls?: TlsSettings;
  readonly proxy?: string;
  readonly connectTimeoutMs: number;
}

/** When the socket a request got was opened, connected and secured (performance.now() times). */
export interface SocketStamp {
  readonly startedAt: number;
  tcpAt?: number;
  tlsAt?: number;
}

/** A request waiting to learn which socket it was handed, and the head written on it. */
export interface SocketWaiter {
  readonly origin: string;
  readonly path: string;
  readonly method: string;
  /**
   * `sentHead`: the request line and header lines exactly as the HTTP client wrote them (CRLF
   * after each; undici's `undici:client:sendHeaders`), before the Content-Length it appends for
   * a body. The request line holds the URL as sent (a GET's key included): read its headers only.
   */
  onSocket(stamp: SocketStamp | undefined, sentHead?: string): void;
}

export interface CoreHttp {
  /**
   * The pooled dispatcher for these settings, reused across sends so keep-alive connections and
   * TLS sessions carry over. Throws TlsFileError (src/core/transport/tlsFile.ts) when a TLS file
   * cannot be read.
   */
  dispatcherFor(settings: TransportSettings): Dispatcher;
  /** Called as a request starts: the very next request given a socket is this one (connect/TLS times). */
  expectSocket?(waiter: SocketWaiter): void;
  /** Closes every pooled connection: the face is done with them. */
  close(): Promise<void>;
}

export interface CoreContext {
  readonly files: CoreFiles;
  /** Environment variables: where API keys are looked up (CARRIER_API_KEY_<ENV>, CARRIER_API_KEY). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: CoreClock;
  readonly http: CoreHttp;
  /**
   * The environment a request file that names none follows, where the face has a selection (the
   * editor's status bar); the CLI has none. Validation follows that environment's stored contract.
   */
  defaultEnvironment?: (fileName: string) => string | undefined;
}
