/**
 * A compressed body in a charset other than UTF-8 is kept as its decoded text in a UTF-8 file
 * (src/inspector/bodies.ts): that file's XML declaration must say UTF-8, or an XML reader takes
 * its bytes for the charset the body came in and misreads every character beyond ASCII. What is
 * shown stays as it came.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { Redactor } from '../../src/core/redact';
import { keptBodyOf } from '../../src/inspector/bodies';

/** What an independent XML reader (xmllint, which honours the declaration) finds at `xpath` in the file. */
function readBack(file: Buffer, xpath: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-bodies-'));
  try {
    fs.writeFileSync(path.join(dir, 'reply.decoded.xml'), file);
    return execFileSync('xmllint', ['--xpath', `string(${xpath})`, path.join(dir, 'reply.decoded.xml')])
      .toString('utf8')
      .replace(/\n$/, '');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CAP = 1 << 20;

function latin1Reply(declaration: string): Buffer {
  return Buffer.from(`${declaration}<Terminal><City>Montréal</City><Name>Café Müller</Name></Terminal>`, 'latin1');
}

describe('inspector bodies: a decoded file says the charset it is written in', () => {
  for (const declaration of ['<?xml version="1.0" encoding="ISO-8859-1"?>', "<?xml version='1.0' encoding='windows-1252' standalone='yes'?>"]) {
    it(`gzip, Latin-1, declared as ${/encoding=.([\w-]+)/.exec(declaration)![1]}: the file reads back as the same characters`, async () => {
      const raw = zlib.gzipSync(latin1Reply(declaration));
      const kept = await keptBodyOf(
        raw,
        [
          ['Content-Type', 'text/xml; charset=ISO-8859-1'],
          ['Content-Encoding', 'gzip'],
        ],
        new Redactor([]),
        CAP,
      );
      assert.equal(kept.decoded, 'gzip');
      assert.ok(kept.text.startsWith(declaration), 'shown as it came');
      const file = kept.file.toString('utf8');
      assert.match(file, /^<\?xml version=.1\.0. encoding=.UTF-8./);
      assert.equal(file.slice(file.indexOf('?>')), kept.text.slice(kept.text.indexOf('?>')));
      assert.deepEqual([readBack(kept.file, '/Terminal/City'), readBack(kept.file, '/Terminal/Name')], ['Montréal', 'Café Müller']);
    });
  }

  it('another charset without compression is written the same way; a UTF-8 declaration is left alone', async () => {
    // 0xA4 is the euro sign in ISO-8859-15 (Latin-9), where Latin-1 has the currency sign.
    const latin9 = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-15"?><City>', 'latin1'),
      Buffer.from([0xa4]),
      Buffer.from(' Montréal</City>', 'latin1'),
    ]);
    const kept = await keptBodyOf(latin9, [['Content-Type', 'text/xml; charset=ISO-8859-15']], new Redactor([]), CAP);
    assert.equal(kept.decoded, 'iso-8859-15');
    assert.match(kept.file.toString('utf8'), /^<\?xml version="1\.0" encoding="UTF-8"\?><City>/);
    assert.equal(readBack(kept.file, '/City'), '€ Montréal');

    const utf8 = zlib.gzipSync(Buffer.from('<?xml version="1.0" encoding="utf-8"?><City>Montréal</City>', 'utf8'));
    const same = await keptBodyOf(
      utf8,
      [
        ['Content-Type', 'text/xml; charset=utf-8'],
        ['Content-Encoding', 'gzip'],
      ],
      new Redactor([]),
      CAP,
    );
    assert.equal(same.file.toString('utf8'), '<?xml version="1.0" encoding="utf-8"?><City>Montréal</City>');
  });
});
