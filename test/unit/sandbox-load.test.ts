/** 64 concurrent clients doing a realistic mix of calls against one sandbox (with a data folder), without an error. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox } from '../../src/sandbox/server';
import { call, child, children, Clock, el, http, KEY, textAt, xml } from './sandbox-kit';
import { bolRequest, rate103 } from './sandbox-requests';

describe('sandbox under load', () => {
  it('serves 64 concurrent clients, each quoting, creating, tracing and looking up, without an error', async function () {
    this.timeout(60_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-sandbox-load-'));
    const sb = await startSandbox({ dataDir: dir, now: new Clock().now });
    try {
      const clientRun = async (n: number) => {
        const ids: number[] = [];
        for (let round = 0; round < 3; round++) {
          const q = await call(sb.url, '/1.0.3/RateQuoteService.asmx', el('GetRateQuote', [el('APIKey', KEY), rate103()]), undefined, n % 2 ? '1.2' : '1.1');
          assert.equal(textAt(q, 'WasSuccess'), 'true');
          const b = await call(
            sb.url,
            '/1.0.1/BillOfLadingService.asmx',
            el('CreateBillOfLading', [el('APIKey', KEY), bolRequest({ po: `PO-LOAD-${n}-${round}` })]),
          );
          assert.equal(textAt(b, 'WasSuccess'), 'true');
          ids.push(Number(textAt(b, 'BolID')));
          const t = await call(
            sb.url,
            '/1.0.2/ShipmentTracingService.asmx',
            el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', `PO-LOAD-${n}-${round}`)]), el('TraceType', 'PO')])]),
          );
          assert.equal(textAt(child(child(t, 'Result'), 'Shipment'), 'ShipmentNumber'), textAt(b, 'WebProNumber'));
          const h = await http(`${sb.url}/sandbox/BillOfLadingService.asmx/GetHazmatDescription?APIKey=${KEY}&UNNANumber=1993`);
          assert.equal(h.status, 200);
          assert.ok(children(child(xml(h.text), 'UNNAList'), 'UNorNA').length >= 1);
        }
        return ids;
      };
      const results = await Promise.all(Array.from({ length: 64 }, (_, n) => clientRun(n)));
      const ids = results.flat();
      assert.equal(ids.length, 64 * 3);
      assert.equal(new Set(ids).size, ids.length, 'every bill of lading got its own BolID');
    } finally {
      await sb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
