import * as vscode from 'vscode';
import type { CarrierApi } from '../../../src/extension/api';
import { EXTENSION_ID, openWorkspaceFile } from './workspace';

/** The extension's API, activated the way a user activates it: by opening a request file. */
export async function carrierApi(): Promise<CarrierApi> {
  const ext = vscode.extensions.getExtension<CarrierApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  if (!ext.isActive) await openWorkspaceFile('requests/terminal.carrier.json');
  return ext.activate();
}
