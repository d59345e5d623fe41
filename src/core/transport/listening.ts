/**
 * The sends in flight on one AbortSignal, told when it aborts. A run hands every send the same
 * signal; adding and removing a listener on it per request was an EventTarget operation each
 * way, so the signal gets one listener, the first time a send uses it, and sends come and go
 * from a set.
 */
interface Abortable {
  readonly onAbort: () => void;
}

const inFlight = new WeakMap<AbortSignal, Set<Abortable>>();

export function listen(signal: AbortSignal, send: Abortable): void {
  let sends = inFlight.get(signal);
  if (!sends) {
    const set = (sends = new Set());
    inFlight.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        // In the order they started, as one listener each would have been told.
        const told = [...set];
        set.clear();
        for (const s of told) s.onAbort();
      },
      { once: true },
    );
  }
  sends.add(send);
}

export function stopListening(signal: AbortSignal, send: Abortable): void {
  inFlight.get(signal)?.delete(send);
}
