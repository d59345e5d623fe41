/**
 * The commands only these tests use, registered by the tests themselves over the extension's API
 * (CarrierApi.testing in src/extension/api.ts): the product ships none of them. What the Test
 * Explorer lists and what a run reported, a run of chosen items, and the Traffic Inspector view's
 * rows; none of it can be read back through VS Code's own API.
 */
import * as vscode from 'vscode';
import { carrierApi } from './extension';

export const TESTING_STATE_COMMAND = 'carrier.test.testingState';
export const TESTING_RUN_COMMAND = 'carrier.test.runTests';
export const TESTING_CANCEL_COMMAND = 'carrier.test.cancelTests';
export const INSPECTOR_ROWS_COMMAND = 'carrier.test.inspectorRows';

let registered: Promise<void> | undefined;

/** Registers the commands once, for the rest of the host run; activates the extension if it is not yet. */
export function registerTestCommands(): Promise<void> {
  registered ??= carrierApi().then(({ testing }) => {
    vscode.commands.registerCommand(TESTING_STATE_COMMAND, () => testing.state());
    vscode.commands.registerCommand(TESTING_RUN_COMMAND, (ids?: readonly string[]) => testing.run(ids));
    vscode.commands.registerCommand(TESTING_CANCEL_COMMAND, () => testing.cancel());
    vscode.commands.registerCommand(INSPECTOR_ROWS_COMMAND, () => testing.inspectorRows());
  });
  return registered;
}

export async function executeTestCommand<T>(command: string, ...args: unknown[]): Promise<T> {
  await registerTestCommands();
  return vscode.commands.executeCommand<T>(command, ...args);
}
