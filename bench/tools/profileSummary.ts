/**
 * `tsx bench/tools/profileSummary.ts file.cpuprofile [top]`: self time by function, the way the
 * notes in BENCHMARKS.md quote profiles (node --cpu-prof writes the file).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface Hotspot {
  readonly name: string;
  readonly selfMs: number;
  readonly share: number;
}

function where(url: string): string {
  const p = url.replace(/^file:\/\//, '');
  const nm = p.lastIndexOf('node_modules/');
  if (nm >= 0) return p.slice(nm + 'node_modules/'.length);
  const src = p.indexOf('/src/');
  return src >= 0 ? p.slice(src + 1) : path.basename(p) || '(native)';
}

export function hotspots(file: string, top = 25): { totalMs: number; spots: Hotspot[] } {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${where(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const spots = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, selfMs: ms, share: ms / total }));
  return { totalMs: total, spots };
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: profileSummary.ts file.cpuprofile [top]\n');
    process.exit(2);
  }
  const { totalMs, spots } = hotspots(file, Number(top ?? 25));
  process.stdout.write(`total ${totalMs.toFixed(0)} ms sampled\n`);
  for (const s of spots) process.stdout.write(`${(s.share * 100).toFixed(1).padStart(5)}%  ${s.selfMs.toFixed(1).padStart(8)} ms  ${s.name}\n`);
}
