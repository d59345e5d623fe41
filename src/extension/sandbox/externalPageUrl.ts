/**
 * Where a person's browser reaches a page of the embedded sandbox. VS Code maps a loopback URL to
 * one the browser can reach (the same URL on a desktop, a forwarded port under Remote-SSH);
 * code-server's mapping to its `/proxy/<port>/` route keeps only the port and drops the page's
 * path and query. No vscode import: the rule is plain URL arithmetic, tested on its own.
 */

/**
 * The URL to open, given the page's loopback URL and what `env.asExternalUri` made of it:
 * undefined when the mapping kept the page (open the loopback URL; VS Code maps it again the same
 * way), else the page's path and query under the mapped root.
 */
export function repairedExternalUrl(pageUrl: string, external: string): string | undefined {
  const page = new URL(pageUrl);
  const mapped = new URL(external);
  if (mapped.pathname.endsWith(page.pathname) && mapped.search === page.search) return undefined;
  const root = mapped.pathname.replace(/\/+$/, '');
  return `${mapped.origin}${root}${page.pathname}${page.search}${page.hash}`;
}
