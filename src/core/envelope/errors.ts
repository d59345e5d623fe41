/** A request that cannot be built: a binding the operation does not offer, a value of the wrong type. */
export class EnvelopeError extends Error {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'EnvelopeError';
  }
}
