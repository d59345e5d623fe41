/**
 * Carrier: Probe Operation… (docs/probe.md#in-vs-code), its answers given as arguments: a probe of
 * GetTerminalInformation on the embedded sandbox holds every property and writes no failure
 * file; Carrier: Cancel Probe ends a probe far too long to finish, which says it was cancelled.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { operations } from '../../src/core/catalog';
import type { ProbeCommandResult } from '../../src/extension/probe/probeCommands';
import { carrierApi } from './support/extension';
import { waitFor } from './support/wait';

describe('probe operation', function () {
  this.timeout(120_000);

  before(async () => {
    await carrierApi();
  });

  it('probes GetTerminalInformation on the embedded sandbox: every property held', async () => {
    const result = await vscode.commands.executeCommand<ProbeCommandResult | undefined>('carrier.probe', undefined, {
      operation: 'GetTerminalInformation',
      binding: 'soap11',
      maxExamples: 6,
    });
    assert.ok(result, 'the command returned its result');
    assert.equal(result.environment, 'sandbox');
    assert.equal(result.cancelled, false);
    assert.match(result.summary, /^probe on sandbox: every property held \(\d+ properties, \d+ examples\)\.$/);
    assert.ok(result.shapes.length >= 1, JSON.stringify(result.shapes));
    for (const s of result.shapes) {
      assert.equal(s.operation, 'GetTerminalInformation');
      assert.equal(s.binding, 'soap11');
      assert.ok(s.examples > 0, JSON.stringify(s));
    }
    assert.deepEqual(
      result.properties.filter((p) => p.failed),
      [],
    );
    assert.ok(result.properties.some((p) => p.name === 'valid-is-answered' && p.checked > 0));
    assert.deepEqual(result.files, []);
  });

  it('Cancel Probe ends a probe under way, which says it was cancelled', async () => {
    // Thousands of examples over every binding: only a cancel lets it end within mocha's timeout.
    const running = vscode.commands.executeCommand<ProbeCommandResult | undefined>('carrier.probe', undefined, {
      operation: 'GetRateQuote',
      binding: 'all',
      maxExamples: 5000,
    });
    await waitFor(async () => (await vscode.commands.executeCommand<boolean>('carrier.cancelProbe')) === true, 'a probe to cancel', 30_000);
    const result = await running;
    assert.ok(result, 'the command returned its result');
    assert.equal(result.cancelled, true);
    assert.match(result.summary, /^probe cancelled; before that, on sandbox: /);
    const rounds = operations.filter((o) => o.operation === 'GetRateQuote').reduce((n, o) => n + o.bindings.length, 0);
    assert.ok(result.shapes.length < rounds, `${result.shapes.length} of ${rounds} rounds finished`);
  });
});
