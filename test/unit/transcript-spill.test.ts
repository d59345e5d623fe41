/**
 * A run's transcripts kept outside the heap (src/host/transcriptSpill.ts): every one read back as
 * it was kept, in any order, while more are kept; the file private to its owner and gone when the
 * run closes it; and `carrier run` with the JSON and HTML reports writes every exchange from it,
 * leaving nothing behind in the temporary folder.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ExchangeTranscript, KeptTranscript } from '../../src/core/runner';
import { TranscriptSpill } from '../../src/host';

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'src/cli/main.ts');

function transcript(i: number): ExchangeTranscript {
  // Sizes from a few bytes to past the write batch, non-ASCII and line breaks inside strings.
  const body = `<r n="${i}">${'ü→😀\n'.repeat((i * 7919) % 40_000)}</r>`;
  return {
    request: { method: 'POST', url: `http://127.0.0.1/${i}`, headers: [['Content-Type', 'text/xml']], body },
    ...(i % 3 ? { reply: { status: 200, statusText: 'OK', headers: [], body: `ok ${i}` } } : { error: `timeout: ${i}` }),
  };
}

describe('transcripts kept outside the heap', function () {
  this.timeout(60_000);

  it('reads every transcript back as it was kept, in any order, while more are kept', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'spill-test-'));
    // A budget of 1 MB: the first transcripts are held in memory, the rest go to the file.
    const spill = new TranscriptSpill({ parent, memoryBytes: 1024 * 1024 });
    const readers: KeptTranscript[] = [];
    for (let i = 0; i < 600; i++) {
      readers.push(spill.keep(transcript(i)));
      // Read back one kept earlier (often still in the unwritten batch) as keeping goes on.
      if (i % 7 === 0) assert.deepEqual(readers[(i * 31) % readers.length](), transcript((i * 31) % readers.length));
    }
    for (let i = readers.length - 1; i >= 0; i -= 3) assert.deepEqual(readers[i](), transcript(i));
    // As JSON text, exactly what JSON.stringify gave, read through windows in and out of order.
    for (let i = 0; i < readers.length; i += 2) assert.equal(readers[i].json?.(), JSON.stringify(transcript(i)));
    for (let i = readers.length - 1; i >= 0; i -= 5) assert.equal(readers[i].json?.(), JSON.stringify(transcript(i)));
    assert.deepEqual(readers[5](), readers[5](), 'read as often as asked');
    const [folder] = fs.readdirSync(parent);
    const file = path.join(parent, folder, 'transcripts.jsonl');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'readable by its owner only');
    spill.close();
    assert.deepEqual(fs.readdirSync(parent), [], 'the file and its folder are gone');
    assert.throws(() => readers[0](), /after the run closed it/);
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('holds transcripts within its memory budget without a file, and lets go of them when closed', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'spill-test-'));
    // Transcripts of up to 400 KB each: a budget they fit in.
    const spill = new TranscriptSpill({ parent, memoryBytes: 32 * 1024 * 1024 });
    const readers = Array.from({ length: 50 }, (_, i) => spill.keep(transcript(i)));
    assert.deepEqual(fs.readdirSync(parent), [], 'no scratch file for a run this small');
    readers.forEach((read, i) => assert.deepEqual(read(), transcript(i)));
    spill.close();
    assert.throws(() => readers[0](), /after the run closed it/);
    fs.rmSync(parent, { recursive: true, force: true });
  });

  for (const reporters of ['json,html', 'json']) {
    it(`carrier run with --reporter ${reporters} writes every exchange, in plan order, and leaves no file behind`, async () => {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spill-run-'));
      const tmp = path.join(work, 'tmp');
      fs.mkdirSync(tmp);
      const suite = path.join(work, 'suite');
      fs.mkdirSync(suite);
      for (let i = 1; i <= 12; i++) {
        const file = { operation: 'GetTerminalInformation', params: { ZipCode: i % 2 ? '68507' : '37029', CountryCode: 'USA' }, expect: { status: 200 } };
        fs.writeFileSync(path.join(suite, `t${String(i).padStart(2, '0')}.carrier.json`), JSON.stringify(file));
      }
      const out = path.join(work, 'out');
      const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          ['--require', require.resolve('tsx/cjs'), MAIN, 'run', 'suite', '-c', '4', '--reporter', reporters, '--out', out],
          { cwd: work, env: { ...process.env, NO_COLOR: '1', TMPDIR: tmp }, timeout: 50_000 },
          (error, _stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stderr }),
        ),
      );
      assert.equal(result.code, 0, result.stderr);
      const text = fs.readFileSync(path.join(out, 'report.json'), 'utf8');
      const report = JSON.parse(text) as { tests: Array<{ file: string; exchange?: ExchangeTranscript }> };
      assert.deepEqual(
        report.tests.map((t) => t.file),
        Array.from({ length: 12 }, (_, i) => `suite/t${String(i + 1).padStart(2, '0')}.carrier.json`),
        'in plan order, whichever ended first',
      );
      report.tests.forEach((t, i) => {
        assert.match(t.exchange?.request.body ?? '', new RegExp(`<ZipCode>${i % 2 ? '37029' : '68507'}</ZipCode>`), t.file);
        assert.equal(t.exchange?.reply?.status, 200, t.file);
      });
      assert.equal(text.split('\n').filter((l) => l.startsWith('      "exchange": {')).length, 12, 'each exchange on one line of its test');
      if (reporters.includes('html')) {
        const html = fs.readFileSync(path.join(out, 'report.html'), 'utf8');
        assert.ok((html.match(/GetTerminalInformationResponse/g)?.length ?? 0) >= 12, 'each exchange is in the HTML report');
      }
      assert.deepEqual(
        fs.readdirSync(tmp).filter((n) => n.startsWith('carrier-run-')),
        [],
        'no scratch file is left behind',
      );
      fs.rmSync(work, { recursive: true, force: true });
    });
  }
});
