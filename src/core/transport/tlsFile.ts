/** A TLS file that cannot be read: reported as a tls error, before anything is sent. */
export class TlsFileError extends Error {
  constructor(
    readonly setting: string,
    readonly file: string,
    cause: string,
  ) {
    super(`cannot read tls.${setting} file ${file}: ${cause}`);
    this.name = 'TlsFileError';
  }
}
