import type * as vscode from 'vscode';

export async function waitFor(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The next event that satisfies `match`, or a timeout error naming `what`. */
export function nextEvent<T>(event: vscode.Event<T>, match: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const sub = event((value) => {
      if (!match(value)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(value);
    });
  });
}
