/** A quick pick over the catalog's operation shapes (an operation at one version). */
import * as vscode from 'vscode';
import { listShapes, type ShapeInfo } from './core-adapter';
import { engine } from './engineBundle';

export async function pickShape(title: string): Promise<ShapeInfo | undefined> {
  const items = listShapes().map((shape) => ({
    label: shape.operation,
    description: shape.version,
    detail: `${shape.description} — ${shape.bindings.map((b) => engine().BINDING_LABELS[b]).join(', ')}`,
    shape,
  }));
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: 'Operation and version', matchOnDescription: true, matchOnDetail: true });
  return pick?.shape;
}
