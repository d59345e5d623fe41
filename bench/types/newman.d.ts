/** The part of newman's node API the bench uses (newman ships no types). */
declare module 'newman' {
  interface RunSummary {
    readonly run: {
      readonly stats: Record<'requests' | 'assertions' | 'tests', { readonly total: number; readonly failed: number }>;
      readonly failures: readonly unknown[];
    };
  }
  interface RunOptions {
    readonly collection: unknown;
    readonly reporters?: string | readonly string[];
    readonly timeoutRequest?: number;
  }
  export function run(options: RunOptions, callback: (err: Error | null, summary: RunSummary) => void): unknown;
}
