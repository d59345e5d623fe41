/**
 * A date in the right form that names no real day (30 February) is one problem with one right
 * message — not also the schema's "should look like 2026-11-23", which it does — and "Send
 * anyway" puts it on the wire exactly as written, with no time added (README: the request goes
 * out as written).
 */
import { strict as assert } from 'node:assert';
import { send } from '../../src/core/send';
import { nodeContext } from '../../src/host';
import { sendableRequest, validateRequestText } from '../../src/core/validation';
import { environmentAt, startServer, type TestServer } from './transport-support';

const KEY = 'impossible-dates-key';

const transit = (date: string) =>
  JSON.stringify(
    {
      operation: 'GetTransitTimes',
      version: '1.0.0',
      params: {
        input: {
          OriginPoint: { ZipOrPostalCode: '37029', CountryCode: 'USA' },
          Destinations: { DestinationPoint: [{ ZipOrPostalCode: '30318', CountryCode: 'USA' }] },
          DateOfPickup: date,
        },
      },
    },
    null,
    2,
  );

describe('an impossible date', () => {
  it('in an xs:dateTime field is one error, said as what it is', () => {
    const { findings } = validateRequestText(transit('2026-02-30'), 'transit.carrier.json');
    const atDate = findings.filter((f) => f.path === 'params.input.DateOfPickup');
    assert.deepEqual(
      atDate.map((f) => [f.severity, f.code, f.message]),
      [['error', 'date', 'params.input.DateOfPickup: "2026-02-30" is not a real date: February 2026 has no day 30']],
    );
  });

  it('in a MM/DD/YYYY field is one error, not a "wrong format" (the format is fine)', () => {
    const text = JSON.stringify({
      operation: 'CreatePickupRequest',
      version: '1.0.3',
      params: { request: { Pickup: { PickupInformation: { PickupDate: '02/30/2026' } } } },
    });
    const atDate = validateRequestText(text, 'pickup.carrier.json').findings.filter((f) => /PickupDate$/.test(f.path));
    assert.deepEqual(
      atDate.map((f) => [f.severity, f.code]),
      [['error', 'date']],
    );
    assert.match(atDate[0].message, /"02\/30\/2026" is not a real date/);
  });

  it('a real day keeps no finding', () => {
    const { findings } = validateRequestText(transit('2026-02-27'), 'transit.carrier.json');
    assert.deepEqual(
      findings.filter((f) => f.path === 'params.input.DateOfPickup'),
      [],
    );
  });

  describe('on the wire', () => {
    const context = nodeContext();
    let server: TestServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });
    after(() => context.http.close());

    const sent = async (date: string, anyway: boolean): Promise<string> => {
      server = await startServer((_req, res) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('refused');
      });
      const validation = validateRequestText(transit(date), 'transit.carrier.json');
      const request = sendableRequest(validation, anyway);
      assert.ok(request, 'sendable');
      await send({ context, request, environment: environmentAt(server.url), apiKey: KEY, asWritten: anyway });
      return server.received[0].body.toString();
    };

    it('"Send anyway" sends it exactly as written, with no time added', async () => {
      const body = await sent('2026-02-30', true);
      assert.match(body, /<DateOfPickup>2026-02-30<\/DateOfPickup>/, body);
      assert.doesNotMatch(body, /2026-02-30T/);
    });

    it('a real bare day still goes out as the xs:dateTime the service reads', async () => {
      const body = await sent('2026-02-27', false);
      assert.match(body, /<DateOfPickup>2026-02-27T00:00:00<\/DateOfPickup>/, body);
    });

    it('is not sendable without "Send anyway"', () => {
      assert.equal(sendableRequest(validateRequestText(transit('2026-02-30'), 'transit.carrier.json'), false), undefined);
    });
  });
});
