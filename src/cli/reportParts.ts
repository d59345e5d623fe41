/**
 * The reports' part of each test, made as the test ends rather than all at the end, while the
 * run waits on the wire. The JSON report's: masked, and encoded straight into the run's scratch
 * store (src/host/spillFile.ts), then copied into report.json in plan order as bytes, never parsed or
 * printed again. The JUnit report's: its <testcase>, put in its suite at the end and masked with
 * the whole file. A report of thousands of tests is then written at the end in the time it takes
 * to copy it.
 */
import { HeldTranscripts, jsonTestPart, junitTestcase, type Relative, type RunObserver, type TestResult } from '../core';
import { SpillFile, type Spilled } from '../host/spillFile';

export class JsonReportParts implements RunObserver {
  private readonly file = new SpillFile('report-parts.json');
  private readonly parts = new WeakMap<TestResult, Spilled>();

  /** `held`: the run's transcript store when nothing else reads transcripts after their part is made. */
  constructor(
    private readonly rel: Relative,
    private readonly mask: (text: string) => string,
    private readonly held?: HeldTranscripts,
  ) {}

  testEnd(result: TestResult): void {
    this.parts.set(result, this.file.appendText(this.mask(jsonTestPart(result, this.rel))));
    this.held?.release(result);
  }

  /** The test's part as masked bytes, when it was made as the test ended. */
  partOf(result: TestResult): Buffer | undefined {
    const at = this.parts.get(result);
    return at && this.file.read(at);
  }

  close(): void {
    this.file.close();
  }
}

/** Each test's <testcase> of junit.xml, made as the test ends (a few hundred bytes each). */
export class JunitReportParts implements RunObserver {
  private readonly cases = new WeakMap<TestResult, string>();

  constructor(private readonly rel: Relative) {}

  testEnd(result: TestResult): void {
    this.cases.set(result, junitTestcase(result, this.rel));
  }

  /** The test's <testcase>, when it was made as the test ended. */
  readonly caseOf = (result: TestResult): string | undefined => this.cases.get(result);
}
