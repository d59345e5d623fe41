/**
 * Row 9 — hostile XML (issue 17): the namespace bomb, one element with 80,000 attributes and 2.1
 * million siblings, each as a reply. Time: parseReply, which refuses each at one of core's XML
 * limits, against a bare fast-xml-parser parse of the same text. Memory: the highest resident
 * set of a fresh process holding the text and running parseReply, against the 300 MB the issue
 * allows. Both in child processes, so each figure belongs to one document alone.
 */
import { runJsonChild } from '../lib/child';
import { median, pairedRatio } from '../lib/stats';
import { atMost, type BenchRow, type RowResult } from '../lib/row';
import { HOSTILE, HOSTILE_KINDS } from '../fixtures/hostileXml';

const MB = 1024 * 1024;
const BUDGET_MB = 300;

export const xmlLimits: BenchRow = {
  id: 'xml-limits',
  title: 'Hostile XML',
  async run(ctx) {
    const results: RowResult[] = [];
    for (const kind of HOSTILE_KINDS) {
      const { what } = HOSTILE[kind];
      const time = await runJsonChild<{ oursMs: number[]; bareMs: number[]; finding: string }>(
        'children/xmlLimits.ts',
        [kind, 'time', String(ctx.runs)],
        ['--expose-gc'],
      );
      results.push({
        id: `xml-limits.${kind}.time`,
        measured: `${what}, as a reply: parseReply (refused: ${time.finding.replace(/ \(line.*$/, '')}) vs bare fast-xml-parser parse, attributes read`,
        a: { label: 'parseReply', value: median(time.oursMs), unit: 'ms' },
        b: { label: 'fast-xml-parser', value: median(time.bareMs), unit: 'ms' },
        ratio: pairedRatio(time.oursMs, time.bareMs),
        ratioText: 'parseReply / bare parse',
        target: atMost(2),
        runs: time.oursMs.length,
      });
      const peaks: number[] = [];
      for (let i = 0; i < ctx.runs; i++) peaks.push((await runJsonChild<{ maxRss: number }>('children/xmlLimits.ts', [kind, 'memory'])).maxRss);
      results.push({
        id: `xml-limits.${kind}.memory`,
        measured: `${what}: highest RSS of a fresh process holding the reply and running parseReply vs the ${BUDGET_MB} MB budget`,
        a: { label: 'peak', value: median(peaks) / MB, unit: 'MB' },
        b: { label: 'budget', value: BUDGET_MB, unit: 'MB' },
        ratio: median(peaks) / (BUDGET_MB * MB),
        ratioText: 'peak / budget',
        target: atMost(1),
        runs: peaks.length,
      });
    }
    return results;
  },
};
