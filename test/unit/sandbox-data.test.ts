import assert from 'node:assert/strict';
import { addBusinessDays, businessDaysBetween, holidayName, holidaysFor, isBusinessDay, rollToBusinessDay } from '../../src/core/calendar';
import {
  DOCUMENT_TYPES,
  HAZMAT_ENTRIES,
  TERMINALS,
  TRACE_TYPES,
  availableDocuments,
  breakbulkFor,
  distanceMiles,
  documentDate,
  findTerminalsFor,
  formatMoney,
  formatPounds,
  formatUsDate,
  formatUsTime,
  locate,
  lookupHazmat,
  normalizeCountry,
  normalizeFreightClass,
  price,
  statusAt as shipmentStatusAt,
  terminalByCode,
  xsdDateTime,
  type Shipment,
  type ShortStatus,
} from '../../src/sandbox/carrier';
import { isValidZip } from '../../src/sandbox/carrier/geography';
import { SAMPLE_PRO, TEST_PRO, findShipments, seededShipments } from '../../src/sandbox/history/seeded';

const day = (iso: string): Date => new Date(`${iso}T12:00:00Z`);
const HOUR = 3_600_000;

describe('sandbox data: geography', () => {
  it('locates US ZIPs by prefix, in the right state', () => {
    assert.equal(locate('37029', 'USA')?.state, 'TN');
    assert.equal(locate('33635', 'US')?.state, 'FL');
    assert.equal(locate('90040-1234', 'usa')?.state, 'CA');
    assert.equal(locate('981011234', 'USA')?.state, 'WA');
    assert.equal(locate('02128', 'USA')?.state, 'MA');
    assert.equal(locate('68507', 'USA')?.state, 'NE');
  });

  it('covers Alaska, Hawaii and Puerto Rico with their own places', () => {
    assert.deepEqual([locate('99501', 'USA')?.state, locate('96819', 'USA')?.state, locate('00920', 'PRI')?.state], ['AK', 'HI', 'PR']);
    assert.equal(locate('00920', 'PR')?.country, 'PRI');
    // USPS treats PR as domestic: a PR ZIP sent with country USA still resolves, to PRI.
    assert.equal(locate('00920', 'USA')?.country, 'PRI');
    assert.equal(locate('37029', 'PRI'), undefined);
    assert.ok(locate('99701', 'USA')!.lat > 64);
  });

  it('locates Canadian postal codes by their first letter, with or without the space', () => {
    assert.deepEqual([locate('K1A 0B1', 'CAN')?.state, locate('k1a0b1', 'CA')?.state], ['ON', 'ON']);
    assert.equal(locate('H3Z 2Y7', 'CA')?.state, 'QC');
    assert.equal(locate('T2C 4W7', 'CAN')?.state, 'AB');
    assert.equal(locate('V6B 1A1', 'CAN')?.state, 'BC');
    assert.equal(locate('B3H 1A1', 'CAN')?.state, 'NS');
    // Calgary and Edmonton share a letter; the metro refinement tells them apart.
    assert.ok(locate('T5J 0N3', 'CAN')!.lat - locate('T2P 1J9', 'CAN')!.lat > 2);
  });

  it('rejects malformed, unassigned and cross-country codes', () => {
    for (const [zip, country] of [
      ['00000', 'USA'],
      ['21301', 'USA'],
      ['09012', 'USA'],
      ['96201', 'USA'],
      ['1234', 'USA'],
      ['ABCDE', 'USA'],
      ['K1A 0B1', 'USA'],
      ['37029', 'CAN'],
      ['D1A 1A1', 'CAN'],
      ['K1A 0O1', 'CAN'],
      ['', 'USA'],
      ['37029', 'MEX'],
      ['37029', ''],
    ] as const) {
      assert.equal(isValidZip(zip, country), false, `${zip} ${country}`);
    }
    assert.equal(isValidZip('37029', 'USA'), true);
  });

  it('normalises ISO2 and ISO3 country codes', () => {
    assert.deepEqual(['us', ' USA ', 'CA', 'can', 'PR', 'XX'].map(normalizeCountry), ['USA', 'USA', 'CAN', 'CAN', 'PRI', undefined]);
  });

  it('gives plausible road distances (great circle times 1.18)', () => {
    const burns = locate('37029', 'USA')!;
    const tampa = locate('33635', 'USA')!;
    const miles = distanceMiles(burns, tampa);
    // Nashville to Tampa is about 700 road miles.
    assert.ok(miles > 600 && miles < 850, `${miles}`);
    assert.equal(distanceMiles(tampa, burns), miles);
    assert.equal(distanceMiles(burns, burns), 0);
    const la = locate('90040', 'USA')!;
    const ny = locate('10001', 'USA')!;
    const coast = distanceMiles(la, ny);
    assert.ok(coast > 2700 && coast < 3300, `${coast}`);
  });
});

describe('sandbox data: terminals', () => {
  it('has at least 60 terminals with well-formed, unique identities', () => {
    assert.ok(TERMINALS.length >= 60);
    assert.equal(new Set(TERMINALS.map((t) => t.TerminalCode)).size, TERMINALS.length);
    assert.equal(new Set(TERMINALS.map((t) => t.TerminalDetailID)).size, TERMINALS.length);
    for (const t of TERMINALS) {
      assert.match(t.TerminalCode, /^[A-Z]{3}$/);
      assert.match(t.DateCreated, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      assert.match(t.TerminalMailingState, /^[A-Z]{2}$/);
      assert.ok(['USA', 'CAN', 'PRI'].includes(t.TerminalMailingCountry));
      assert.ok(t.phones.length >= 2);
      for (const p of t.phones) assert.match(p.PhoneNumber, /^\d{3}-\d{3}-\d{4}$/);
      // Each terminal's own ZIP must be one the sandbox accepts, in its own state.
      assert.equal(locate(t.TerminalMailingZip, t.TerminalMailingCountry)?.state, t.TerminalMailingState, t.TerminalCode);
    }
  });

  it('spreads over every US region and several Canadian provinces', () => {
    const states = new Set(TERMINALS.map((t) => t.TerminalMailingState));
    for (const s of ['MA', 'NY', 'PA', 'GA', 'FL', 'TN', 'IL', 'OH', 'MN', 'TX', 'AZ', 'CO', 'UT', 'CA', 'OR', 'WA', 'AK', 'HI', 'PR']) {
      assert.ok(states.has(s), s);
    }
    const provinces = new Set(TERMINALS.filter((t) => t.TerminalMailingCountry === 'CAN').map((t) => t.TerminalMailingState));
    assert.ok(provinces.size >= 6, [...provinces].join(','));
    assert.ok(TERMINALS.some((t) => t.TerminalType === 'Breakbulk') && TERMINALS.some((t) => t.TerminalType === 'Agent'));
  });

  it('finds the nearest terminals for a US ZIP, nearest first', () => {
    const near = findTerminalsFor('37029', 'US');
    assert.equal(near.length, 3);
    assert.equal(near[0]!.TerminalCode, 'BNA');
    assert.deepEqual(
      findTerminalsFor('37029', 'USA').map((t) => t.TerminalCode),
      near.map((t) => t.TerminalCode),
    );
    const place = locate('37029', 'USA')!;
    const miles = near.map((t) => distanceMiles(place, t));
    assert.deepEqual(
      miles,
      [...miles].sort((a, b) => a - b),
    );
    assert.equal(findTerminalsFor('33635', 'USA', 1)[0]!.TerminalCode, 'TPA');
    assert.equal(findTerminalsFor('33635', 'USA', 5).length, 5);
  });

  it('serves Canadian postal codes from Canadian terminals only', () => {
    const ottawa = findTerminalsFor('K1A 0B1', 'CA');
    assert.equal(ottawa[0]!.TerminalCode, 'YOW');
    assert.ok(ottawa.every((t) => t.TerminalMailingCountry === 'CAN'));
    assert.equal(findTerminalsFor('M5V 3L9', 'CAN', 1)[0]!.TerminalCode, 'YYZ');
    // Windsor is closer to Detroit than to any Canadian terminal, yet stays in Canada.
    assert.ok(findTerminalsFor('N9A 1A1', 'CAN').every((t) => t.TerminalMailingCountry === 'CAN'));
  });

  it('returns [] for codes it cannot place', () => {
    assert.deepEqual(findTerminalsFor('00000', 'US'), []);
    assert.deepEqual(findTerminalsFor('K1A 0B1', 'US'), []);
    assert.deepEqual(findTerminalsFor('37029', 'DE'), []);
    assert.deepEqual(findTerminalsFor('hello', 'CAN'), []);
  });

  it('routes through the nearest breakbulk of the same network', () => {
    assert.equal(breakbulkFor(terminalByCode('TPA')!).TerminalCode, 'ATL');
    assert.equal(breakbulkFor(terminalByCode('YOW')!).TerminalMailingCountry, 'CAN');
    assert.equal(breakbulkFor(terminalByCode('ORD')!).TerminalCode, 'ORD');
  });
});

describe('sandbox data: hazmat', () => {
  it('holds at least 120 distinct UN/NA numbers with well-formed entries', () => {
    assert.ok(new Set(HAZMAT_ENTRIES.map((e) => e.Number)).size >= 120);
    for (const e of HAZMAT_ENTRIES) {
      assert.match(e.Number, /^(UN|NA)\d{4}$/);
      assert.ok(e.Description.length > 2);
      assert.equal(e.NOS, /n\.o\.s\./i.test(e.Description) ? 'Y' : 'N', e.Description);
    }
  });

  it('returns every Gasoline entry for UN1203 in any spelling of the number', () => {
    const entries = lookupHazmat('UN1203');
    assert.ok(entries.length >= 2);
    assert.ok(entries.every((e) => e.Number === 'UN1203' && e.Description.includes('Gasoline') && e.NOS === 'N'));
    for (const q of ['1203', 'un 1203', 'UN-1203', ' un1203 ']) assert.deepEqual(lookupHazmat(q), entries, q);
  });

  it('keeps several entries of one number (paint and paint related material)', () => {
    const paint = lookupHazmat('1263').map((e) => e.Description);
    assert.ok(paint.some((d) => d.startsWith('Paint including')));
    assert.ok(paint.some((d) => d.startsWith('Paint related material')));
  });

  it('finds NA numbers and marks n.o.s. entries', () => {
    const na = lookupHazmat('na1993');
    assert.ok(na.length >= 1 && na.every((e) => e.Number === 'NA1993'));
    const combustible = na.find((e) => e.Description === 'Combustible liquid, n.o.s.');
    assert.equal(combustible?.NOS, 'Y');
    assert.deepEqual(
      lookupHazmat('UN1993').map((e) => [e.Number, e.NOS]),
      [['UN1993', 'Y']],
    );
    // A bare number matches both lists.
    const both = new Set(lookupHazmat('1993').map((e) => e.Number));
    assert.deepEqual([...both].sort(), ['NA1993', 'UN1993']);
    assert.deepEqual(lookupHazmat('1090'), [{ Number: 'UN1090', Description: 'Acetone', NOS: 'N', hazardClasses: ['3'], packingGroups: ['II'] }]);
  });

  it('returns [] for unknown or malformed numbers', () => {
    for (const q of ['9999', 'UN9999', 'NA1203', 'abc', '', '12034', 'XX1203']) assert.deepEqual(lookupHazmat(q), [], q);
  });

  it('hands out copies, so a caller cannot change the table', () => {
    const first = lookupHazmat('1090')[0]!;
    (first as { Description: string }).Description = 'changed';
    assert.equal(lookupHazmat('1090')[0]!.Description, 'Acetone');
  });
});

describe('sandbox data: calendar', () => {
  it('closes on the LTL holiday set of 2026, with Independence Day observed on Friday July 3', () => {
    assert.deepEqual(
      holidaysFor(2026).map((h) => `${h.date} ${h.name}`),
      [
        "2026-01-01 New Year's Day",
        '2026-05-25 Memorial Day',
        '2026-07-03 Independence Day',
        '2026-09-07 Labor Day',
        '2026-11-26 Thanksgiving Day',
        '2026-11-27 Day after Thanksgiving',
        '2026-12-24 Christmas Eve',
        '2026-12-25 Christmas Day',
      ],
    );
  });

  it('shifts weekend holidays the federal way, including across the year end', () => {
    // New Year's Day 2022 was a Saturday: observed Friday 2021-12-31.
    assert.equal(holidayName(day('2021-12-31')), "New Year's Day");
    assert.ok(!holidaysFor(2022).some((h) => h.name === "New Year's Day"));
    // Christmas 2022 on Sunday: Christmas Monday 26th, Eve Friday 23rd.
    assert.equal(holidayName(day('2022-12-26')), 'Christmas Day');
    assert.equal(holidayName(day('2022-12-23')), 'Christmas Eve');
    // Christmas 2021 on Saturday: Christmas Friday 24th, Eve Thursday 23rd.
    assert.equal(holidayName(day('2021-12-24')), 'Christmas Day');
    assert.equal(holidayName(day('2021-12-23')), 'Christmas Eve');
  });

  it('knows business days', () => {
    assert.equal(isBusinessDay(day('2026-07-03')), false);
    assert.equal(isBusinessDay(day('2026-07-04')), false);
    assert.equal(isBusinessDay(day('2026-07-06')), true);
    assert.equal(isBusinessDay(day('2026-11-26')), false);
    // MLK Day is a federal holiday but a normal LTL operating day.
    assert.equal(isBusinessDay(day('2026-01-19')), true);
  });

  it('adds business days across a holiday weekend, keeping the time of day', () => {
    const thursday = new Date('2026-07-02T15:30:00Z');
    assert.equal(addBusinessDays(thursday, 1).toISOString(), '2026-07-06T15:30:00.000Z');
    assert.equal(addBusinessDays(thursday, 2).toISOString(), '2026-07-07T15:30:00.000Z');
    assert.equal(addBusinessDays(new Date('2026-07-06T15:30:00Z'), -1).toISOString(), '2026-07-02T15:30:00.000Z');
    assert.equal(formatUsDate(addBusinessDays(day('2026-11-25'), 1)), '11/30/2026');
    assert.equal(addBusinessDays(day('2026-07-04'), 0).getTime(), day('2026-07-04').getTime());
    assert.equal(formatUsDate(rollToBusinessDay(day('2026-07-03'))), '07/06/2026');
    assert.equal(businessDaysBetween(day('2026-07-02'), day('2026-07-07')), 2);
    assert.throws(() => addBusinessDays(thursday, 1.5), RangeError);
  });
});

describe('sandbox data: formats and tariff', () => {
  it('formats dates, times and money as the carrier writes them', () => {
    const t = new Date('2026-03-05T15:07:09Z');
    assert.equal(formatUsDate(t), '03/05/2026');
    assert.equal(formatUsTime(t), '03:07 PM');
    assert.equal(formatUsTime(new Date('2026-03-05T00:05:00Z')), '12:05 AM');
    assert.equal(xsdDateTime(t), '2026-03-05T15:07:09');
    assert.deepEqual([formatMoney(62143), formatMoney(123456789), formatMoney(-1200), formatMoney(5)], ['$621.43', '$1,234,567.89', '-$12.00', '$0.05']);
    // A weight keeps its tenth (issue 19: 2,120.5 lb was shown as 2,121 lb).
    assert.deepEqual([formatPounds(12450.4), formatPounds(2120.5), formatPounds(1500)], ['12,450.4', '2,120.5', '1,500']);
    // No amount, however large, comes out in exponent form.
    assert.equal(formatMoney(1e21), '$10,000,000,000,000,000,000.00');
  });

  it('normalises freight classes to the 18 values', () => {
    assert.deepEqual(['50', 55, '77.5', ' 100.0 ', '45', 'x'].map(normalizeFreightClass), ['50.0', '55.0', '77.5', '100.0', undefined, undefined]);
  });

  it('lays charges out as item lines, GROSS, DISCNT, DISCNF, accessorials, FUEL, NET, adding up exactly', () => {
    // 2,200 lb: no deficit weight applies (sandbox-tariff.test.ts covers that rule).
    const { lines, netCents } = price({
      items: [
        { freightClass: '50.0', weight: 1500 },
        { freightClass: 100, weight: 700 },
      ],
      miles: 700,
      accessorials: ['DestinationLiftgate', 'Unknown'],
    });
    assert.deepEqual(
      lines.map((l) => l.Type),
      ['', '', 'GROSS', 'DISCNT', 'DISCNF', 'ACC', 'FUEL', 'NET'],
    );
    const cents = (type: string): number => lines.find((l) => l.Type === type)!.amountCents;
    assert.equal(cents('GROSS'), lines[0]!.amountCents + lines[1]!.amountCents);
    assert.equal(cents('DISCNF'), cents('GROSS') + cents('DISCNT'));
    assert.equal(netCents, cents('DISCNF') + cents('ACC') + cents('FUEL'));
    assert.equal(cents('NET'), netCents);
    assert.equal(lines.at(-1)!.Title, 'Net Charge');
    // Higher class costs more per pound on the same lane.
    assert.ok(lines[1]!.ratePerCwt! > lines[0]!.ratePerCwt!);
  });
});

describe('sandbox data: shipments', () => {
  const anchor = new Date('2026-03-11T16:20:00Z');
  const shipments = seededShipments(anchor);

  it('is deterministic for an anchor', () => {
    assert.deepEqual(JSON.stringify(seededShipments(new Date(anchor))), JSON.stringify(shipments));
  });

  it('has at least 40 shipments with unique PROs, including the sample and the test PRO', () => {
    assert.ok(shipments.length >= 40);
    const pros = shipments.map((s) => s.proNumber);
    assert.equal(new Set(pros).size, pros.length);
    assert.ok(pros.includes(SAMPLE_PRO) && pros.includes(TEST_PRO));
    for (const pro of pros) if (pro !== TEST_PRO) assert.match(pro, /^\d{9}$/);
    assert.equal(new Set(shipments.map((s) => s.bolId)).size, shipments.length);
  });

  it('starts the history on the Burns TN -> Tampa FL sample lane', () => {
    const s = shipments.find((x) => x.proNumber === SAMPLE_PRO)!;
    assert.deepEqual([s.shipper.City, s.shipper.ZipCode, s.consignee.City, s.consignee.ZipCode], ['Burns', '37029', 'Tampa', '33635']);
  });

  it('carries a number for every trace type and finds the shipment by each', () => {
    for (const s of shipments) {
      for (const type of TRACE_TYPES) {
        const value = s.references[type];
        assert.ok(value && value.trim(), `${s.proNumber} ${type}`);
        assert.ok(findShipments(shipments, type, value.toLowerCase()).includes(s), `${s.proNumber} by ${type}`);
      }
      assert.equal(s.references.PRO, s.proNumber);
    }
    assert.deepEqual(
      findShipments(shipments, 'PRO', '56391174').map((s) => s.proNumber),
      [SAMPLE_PRO],
    );
    assert.deepEqual(findShipments(shipments, 'PO', 'NO-SUCH-PO'), []);
    assert.deepEqual(findShipments(shipments, 'BOL', '  '), []);
  });

  it('has consistent freight: pieces and weight add up, timelines are ordered', () => {
    for (const s of shipments) {
      assert.equal(
        s.pieces,
        s.items.reduce((n, i) => n + i.Pieces, 0),
      );
      assert.equal(
        s.weight,
        s.items.reduce((n, i) => n + i.Weight, 0),
      );
      assert.ok(s.handlingUnits.length > 0);
      const times = s.events.map((e) => e.at.getTime());
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
        s.proNumber,
      );
      assert.equal(s.route[0], s.originTerminal);
      assert.equal(s.netChargeCents, s.charges.at(-1)!.amountCents);
      if (s.items.some((i) => i.IsHazmat)) assert.ok(s.hazmatContact?.EmergencyNumber);
    }
  });

  it('spreads pickups from about ten days before the anchor to about two days after', () => {
    const offsets = shipments.map((s) => (s.pickupAt.getTime() - anchor.getTime()) / (24 * HOUR));
    assert.ok(Math.min(...offsets) >= -12 && Math.min(...offsets) <= -8, `${Math.min(...offsets)}`);
    assert.ok(Math.max(...offsets) >= 1.5 && Math.max(...offsets) <= 4.5, `${Math.max(...offsets)}`);
  });

  it('has a shipment in every state at the anchor', () => {
    const states = new Set(shipments.map((s) => shipmentStatusAt(s, anchor).ShortStatus));
    for (const st of ['Pickup Scheduled', 'Picked Up', 'In Transit', 'Out For Delivery', 'Delivered', 'Exception'] as ShortStatus[]) {
      assert.ok(states.has(st), st);
    }
    // Pinned states follow the anchor's day: at any working hour of a business day all are there.
    // (Before issue 19 they were pinned to the anchor instant, even at 10 PM or on a Sunday, which
    // put deliveries at midnight; now nobody is out for delivery outside working hours.)
    for (const iso of ['2025-12-23T13:45:00Z', '2025-12-23T17:00:00Z', '2025-12-23T21:30:00Z', '2026-07-02T14:00:00Z']) {
      const other = new Date(iso);
      const states = new Set(seededShipments(other).map((s) => shipmentStatusAt(s, other).ShortStatus));
      assert.equal(states.size, 7, `${iso}: ${[...states].join(', ')}`);
    }
    const night = new Date('2025-12-24T03:00:00Z');
    assert.ok(!seededShipments(night).some((s) => shipmentStatusAt(s, night).ShortStatus === 'Out For Delivery'), 'nobody is out for delivery at 10 PM');
  });

  const ORDER: ShortStatus[] = ['Pickup Scheduled', 'Picked Up', 'In Transit', 'Out For Delivery', 'Delivered'];

  function walk(s: Shipment): Array<ReturnType<typeof shipmentStatusAt>> {
    const start = s.events[0]!.at.getTime() - HOUR;
    const end = s.events.at(-1)!.at.getTime() + HOUR;
    const seen = [];
    for (let t = start; t <= end; t += HOUR / 2) seen.push(shipmentStatusAt(s, new Date(t)));
    return seen;
  }

  it('moves a shipment forward through its statuses as time passes', () => {
    const s = shipments.find((x) => !x.exception && x.route.length >= 2)!;
    const seen = walk(s);
    const ranks = seen.map((st) => ORDER.indexOf(st.ShortStatus));
    assert.ok(ranks.every((r) => r >= 0));
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
    assert.deepEqual([...new Set(seen.map((x) => x.ShortStatus))], ORDER);
    const lengths = seen.map((x) => x.history.length);
    assert.deepEqual(
      lengths,
      [...lengths].sort((a, b) => a - b),
    );
    assert.equal(seen[0]!.history.length, 0);
    assert.equal(seen.at(-1)!.history.length, s.events.length);
    assert.ok(seen.at(-1)!.delivered);
    assert.match(seen.at(-1)!.LongStatus, /^Delivered, signed by [A-Z]\. [A-Z]+ - /);
    const mid = seen[Math.floor(seen.length / 2)]!;
    const midTime = mid.history.at(-1)!.at.getTime();
    assert.ok(mid.history.every((e) => e.at.getTime() <= midTime));
  });

  it('shows a consignee-closed exception, then the redelivery', () => {
    const s = shipments.find((x) => x.exception === 'ConsigneeClosed')!;
    const statuses = walk(s)
      .map((x) => x.ShortStatus)
      .filter((st, i, all) => i === 0 || all[i - 1] !== st);
    assert.deepEqual(statuses.slice(-4), ['Out For Delivery', 'Exception', 'Out For Delivery', 'Delivered']);
    const ex = s.events.find((e) => e.code === 'EX')!;
    assert.equal(ex.description, 'Delivery exception: consignee closed');
    const rt = s.events.find((e) => e.code === 'RT')!;
    const redelivery = s.events.filter((e) => e.code === 'OFD')[1]!;
    // The promised date is the date the redelivery actually happens.
    assert.ok(rt.description.endsWith(formatUsDate(redelivery.at)), rt.description);
  });

  it('never delivers a refused shipment', () => {
    const s = shipments.find((x) => x.exception === 'Refused')!;
    const last = walk(s).at(-1)!;
    assert.equal(last.ShortStatus, 'Exception');
    assert.equal(last.delivered, false);
    assert.equal(s.deliveredAt, undefined);
  });

  it('produces archive documents as the freight moves', () => {
    const s = shipments.find((x) => x.scaleWeight !== undefined && x.deliveredAt)!;
    assert.deepEqual(availableDocuments(s, new Date(s.pickupAt.getTime() - HOUR)), []);
    assert.deepEqual(availableDocuments(s, s.pickupAt), ['BillOfLading']);
    assert.deepEqual(availableDocuments(s, new Date(s.deliveredAt!.getTime() + HOUR)), [...DOCUMENT_TYPES]);
    assert.equal(documentDate(s, 'DeliveryReceipt', s.deliveredAt!)!.getTime(), s.deliveredAt!.getTime());
    const unweighed = shipments.find((x) => x.scaleWeight === undefined && x.deliveredAt)!;
    assert.ok(!availableDocuments(unweighed, new Date(unweighed.deliveredAt!.getTime() + HOUR)).includes('WeightCertificate'));
  });
});
