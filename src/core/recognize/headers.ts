/** One header's value from either form of HeaderInput; several values are joined as HTTP joins them. */
import type { HeaderInput } from './types';

export function headerValue(headers: HeaderInput, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (Array.isArray(headers)) {
    const values = (headers as ReadonlyArray<readonly [string, string]>).filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
    return values.length ? values.join(', ') : undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  for (const [n, v] of Object.entries(record)) {
    if (n.toLowerCase() !== lower || v === undefined) continue;
    return typeof v === 'string' ? v : v.join(', ');
  }
  return undefined;
}
