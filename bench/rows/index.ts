/**
 * The rows of `npm run bench`, in the order the table prints them. A new row is a module in this
 * folder exporting a BenchRow, added to this list — nothing else changes.
 */
import { inOwnProcess } from '../lib/ownProcess';
import type { BenchRow } from '../lib/row';
import { bundle } from './bundle';
import { carrierLoadRow } from './carrierLoad';
import { cliStart } from './cliStart';
import { clientOverhead } from './clientOverhead';
import { inspectorOverhead } from './inspector';
import { largeReplies } from './largeReplies';
import { nodeSoap } from './nodeSoap';
import { runnerThroughput } from './runnerThroughput';
import { runnerVsNewman } from './runnerVsNewman';
import { sandboxLoad } from './sandboxLoad';
import { sandboxState } from './sandboxState';
import { validation } from './validation';
import { xmlLimits } from './xmlLimits';

export const ROWS: readonly BenchRow[] = [
  // Client code timed per request, against another client in the same process: in a process of their own.
  inOwnProcess(clientOverhead, 'rows/clientOverhead', 'clientOverhead'),
  inOwnProcess(nodeSoap, 'rows/nodeSoap', 'nodeSoap'),
  runnerVsNewman,
  runnerThroughput,
  largeReplies,
  validation,
  bundle,
  cliStart,
  inspectorOverhead,
  sandboxState,
  xmlLimits,
  sandboxLoad,
  carrierLoadRow,
];
