/**
 * A run's transcripts kept as bytes, in a file past a memory budget (core's TranscriptStore): a
 * run of 10,000 tests with the HTML report on would otherwise hold every request and reply in the
 * heap until the reports are written. Each transcript is kept as JSON and read back when a report
 * writes it. It holds transcripts already redacted (src/core/runner/transcript.ts), in the run's
 * private scratch store (spillFile.ts), let go of by `close()`.
 */
import type { ExchangeTranscript, KeptTranscript, TranscriptStore } from '../core';
import { SpillFile, type SpillFileOptions } from './spillFile';

export class TranscriptSpill implements TranscriptStore {
  private readonly file: SpillFile;

  constructor(options: SpillFileOptions = {}) {
    this.file = new SpillFile('transcripts.jsonl', options);
  }

  keep(transcript: ExchangeTranscript): KeptTranscript {
    const kept = this.file.appendText(JSON.stringify(transcript));
    const json = () => this.file.read(kept).toString('utf8');
    return Object.assign(() => JSON.parse(json()) as ExchangeTranscript, { json });
  }

  close(): void {
    this.file.close();
  }
}
