/**
 * A TranscriptStore that holds each transcript only until its report part is made: a run whose
 * JSON report is written test by test as they end (src/cli/reportParts.ts), with no HTML report
 * to read them again at the end, need not keep thousands of requests and replies to the last.
 */
import type { ExchangeTranscript, KeptTranscript, TestResult, TranscriptStore } from './types';

interface Slot {
  transcript: ExchangeTranscript | undefined;
}

export class HeldTranscripts implements TranscriptStore {
  /** Each kept transcript's `json` function (what a result carries as transcriptJson) → its slot. */
  private readonly slots = new WeakMap<() => string, Slot>();

  keep(transcript: ExchangeTranscript): KeptTranscript {
    const slot: Slot = { transcript };
    const read = () => {
      if (!slot.transcript) throw new Error('a transcript was read after its report part was written');
      return slot.transcript;
    };
    const json = () => JSON.stringify(read());
    this.slots.set(json, slot);
    return Object.assign(read, { json });
  }

  /** Lets go of the result's transcript: its part is written. */
  release(result: TestResult): void {
    const slot = result.transcriptJson && this.slots.get(result.transcriptJson);
    if (slot) slot.transcript = undefined;
  }
}
