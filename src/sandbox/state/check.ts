/**
 * Whether what a state file holds is a sandbox state: the checks that make a snapshot or a
 * journal line "read". Each answers with the first thing wrong, in a few words that never quote
 * the file's content, or undefined. Counters are not checked here: a wrong or set-back counter
 * is repaired on load (counters.ts), it does not make the state unreadable.
 */
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const positiveId = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

function bolProblem(v: unknown, where: string): string | undefined {
  if (!isObject(v)) return `${where} is not a bill of lading`;
  if (!positiveId(v.bolId)) return `${where} has no whole, positive bolId`;
  if (typeof v.pro !== 'string') return `${where} has no pro`;
  if (!isObject(v.billOfLading)) return `${where} has no billOfLading record`;
  return undefined;
}

function pickupProblem(v: unknown, where: string): string | undefined {
  if (!isObject(v)) return `${where} is not a pickup`;
  if (!positiveId(v.id)) return `${where} has no whole, positive id`;
  if (!isObject(v.pickup)) return `${where} has no pickup record`;
  return undefined;
}

/** A snapshot of format 1 or 2 with its bills of lading and pickups. */
export function snapshotProblem(v: unknown): string | undefined {
  if (!isObject(v)) return 'not a JSON object';
  if (v.format !== 1 && v.format !== 2) return `format ${JSON.stringify(v.format) ?? 'missing'} is not one this sandbox reads (1 or 2)`;
  if (v.format === 2 && !(typeof v.journal === 'number' && Number.isSafeInteger(v.journal) && v.journal >= 0))
    return 'its journal generation is not a whole number';
  if (!Array.isArray(v.bols)) return 'no list of bills of lading ("bols")';
  if (!Array.isArray(v.pickups)) return 'no list of pickups ("pickups")';
  for (let i = 0; i < v.bols.length; i++) {
    const problem = bolProblem(v.bols[i], `bill of lading ${i + 1}`);
    if (problem) return problem;
  }
  for (let i = 0; i < v.pickups.length; i++) {
    const problem = pickupProblem(v.pickups[i], `pickup ${i + 1}`);
    if (problem) return problem;
  }
  return undefined;
}

/** One journal line: a bill of lading or a pickup (or both), and the counters after it. */
export function entryProblem(v: unknown): string | undefined {
  if (!isObject(v)) return 'not a JSON object';
  if (v.bol === undefined && v.pickup === undefined) return 'neither a bill of lading nor a pickup';
  if (v.bol !== undefined) {
    const problem = bolProblem(v.bol, 'its bill of lading');
    if (problem) return problem;
  }
  if (v.pickup !== undefined) return pickupProblem(v.pickup, 'its pickup');
  return undefined;
}
