/**
 * probe.json: properties of the service as data (docs/probe.md#probejson), each an `expect` in
 * the language of request files (docs/collections.md#expect), compiled by the runner's compiler
 * for every version of its operation, so a reply path is checked against that version's reply.
 */
import { shapesOf } from '../catalog';
import { parseJson } from '../requestFile/jsonc';
import { compileRequestFile } from '../runner/loadFile';
import type { UserProperty } from './run';

export interface PropertiesRead {
  readonly properties: UserProperty[];
  /** Mistakes, each a line to print; the probe does not start with any. */
  readonly problems: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function readProbeProperties(text: string, file: string): PropertiesRead {
  const problems: string[] = [];
  const properties: UserProperty[] = [];
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value) || !Array.isArray(parsed.value.properties))
    return { properties, problems: [`${file}: error: expected { "properties": [ { "name", "operation", "expect" } ] }`] };
  parsed.value.properties.forEach((p: unknown, i: number) => {
    const at = `${file}: properties[${i}]`;
    if (!isObject(p) || typeof p.name !== 'string' || !p.name || typeof p.operation !== 'string' || !isObject(p.expect)) {
      problems.push(`${at}: error: a property needs "name", "operation" and an "expect" object`);
      return;
    }
    const version = typeof p.version === 'string' ? p.version : undefined;
    const shapes = shapesOf(p.operation).filter((s) => version === undefined || s.version === version);
    if (!shapes.length) {
      problems.push(`${at}: error: ${p.operation}${version ? ` ${version}` : ''} is not an operation shape of the service`);
      return;
    }
    for (const shape of shapes) {
      const asFile = JSON.stringify({ operation: shape.operation, version: shape.version, params: {}, expect: p.expect }, null, 2);
      const compiled = compileRequestFile(asFile, `${file}#${p.name}`);
      if (compiled.problems.length) {
        for (const f of compiled.problems) problems.push(`${at} (${p.name}, ${shape.operation} ${shape.version}): error: ${f.message}`);
        continue;
      }
      properties.push({ name: p.name, operation: shape.operation, version: shape.version, expect: compiled.expect, written: p.expect });
    }
  });
  return { properties, problems };
}
