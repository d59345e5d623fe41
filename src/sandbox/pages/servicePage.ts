/**
 * The page a browser gets for GET on a service path without `?WSDL`: the service page, or with
 * `?op=<Operation>` that operation's page (an unknown name is a 404 page). This is the single
 * entry point the router calls for service pages; the SOAP test form's POST is routes/testFormRoute.ts.
 */
import type { Namespaces, OperationDef } from '../../core';
import type { Reply } from '../http/reply';
import { unknownOperationPage } from './errorPage';
import { indexPage } from './indexPage';
import { operationPage } from './operationPage';

export interface ServicePageInput {
  readonly path: string;
  readonly shapes: readonly OperationDef[];
  readonly namespaces: Namespaces;
  /** `http://host:port` as the browser reached the sandbox. */
  readonly baseUrl: string;
  readonly query: URLSearchParams;
  /** The connection's peer address (req.socket.remoteAddress): only loopback callers get the SOAP test form. */
  readonly remoteAddress: string | undefined;
  /** The sandbox's clock: the forms' sample dates are computed from it when the page is served. */
  readonly now?: Date;
  /** The sandbox accepts any key (no list given): the forms carry the sample key. */
  readonly anyKey?: boolean;
}

export function servicePage(input: ServicePageInput): Reply {
  const name = input.query.get('op');
  if (name === null) return indexPage(input.path, input.shapes);
  const op = input.shapes.find((s) => s.operation === name);
  if (!op) return unknownOperationPage(input.path, input.shapes, name);
  return operationPage({
    path: input.path,
    op,
    namespaces: input.namespaces,
    host: new URL(input.baseUrl).host,
    remoteAddress: input.remoteAddress,
    soapVersion: input.query.get('soap') === '1.2' ? '1.2' : '1.1',
    ...(input.now ? { now: input.now } : {}),
    ...(input.anyKey !== undefined ? { anyKey: input.anyKey } : {}),
  });
}
