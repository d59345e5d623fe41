/**
 * Row 4 — large replies: parse + decode (parseReply) of a 20 MB reply carrying a 15 MB PDF and of
 * a 10,000-shipment trace reply, against a bare fast-xml-parser parse of the same text; and the
 * peak memory of parseReply against the reply's size. Both measured in child processes started
 * with --expose-gc, so collections happen where the measurement wants them and the memory
 * high-water mark belongs to one parse alone.
 */
import { writeBigReplies } from '../fixtures/bigReplies';
import { runJsonChild } from '../lib/child';
import { median, pairedRatio } from '../lib/stats';
import { atMost, type BenchRow, type RowResult } from '../lib/row';

const MB = 1024 * 1024;

export const largeReplies: BenchRow = {
  id: 'large-replies',
  title: 'Large replies',
  async run(ctx) {
    const replies = await writeBigReplies(ctx.tmp, ctx.sandboxUrl);
    const results: RowResult[] = [];
    for (const reply of replies) {
      const args = [reply.file, reply.operation, reply.version];
      const expect = JSON.stringify(reply.expect);
      const time = await runJsonChild<{ oursMs: number[]; bareMs: number[] }>('children/replyTime.ts', [...args, String(ctx.runs), expect], ['--expose-gc']);
      results.push({
        id: `large-replies.${reply.expect.pdfBytes ? 'pdf' : 'trace'}.time`,
        measured: `${reply.name}, ${(reply.bytes / MB).toFixed(1)} MB: parseReply (parse + decode) vs bare fast-xml-parser parse`,
        a: { label: 'parseReply', value: median(time.oursMs), unit: 'ms' },
        b: { label: 'fast-xml-parser', value: median(time.bareMs), unit: 'ms' },
        ratio: pairedRatio(time.oursMs, time.bareMs),
        ratioText: 'parseReply / bare parse',
        target: atMost(2),
        runs: time.oursMs.length,
      });
      const peaks: number[] = [];
      for (let i = 0; i < ctx.runs; i++) {
        peaks.push((await runJsonChild<{ peakAboveBaseline: number }>('children/replyMemory.ts', [...args, expect], ['--expose-gc'])).peakAboveBaseline);
      }
      results.push({
        id: `large-replies.${reply.expect.pdfBytes ? 'pdf' : 'trace'}.memory`,
        measured: `${reply.name}: peak memory of parseReply (RSS above baseline, fresh process) vs reply size`,
        a: { label: 'peak', value: median(peaks) / MB, unit: 'MB' },
        b: { label: 'reply', value: reply.bytes / MB, unit: 'MB' },
        ratio: median(peaks) / reply.bytes,
        ratioText: 'peak / reply size',
        target: atMost(4),
        runs: peaks.length,
      });
    }
    return results;
  },
};
