// A loopback HTTP endpoint through which the suite, running inside the extension host, talks to
// the runner: it reports its result (so the runner can print a closing "N passed, N failed" line
// that CI reads), asks for screenshots of the real workbench page and types into it, which only
// the runner's browser can do.
'use strict';

const http = require('node:http');

/**
 * @param {{ screenshot: (name: string) => Promise<string | undefined>,
 *           type: (text: string | null, selector: string, waitForValue: boolean) => Promise<boolean>,
 *           webview: (op: object) => Promise<object | undefined> }} handlers
 * @returns {Promise<{ url: string, result: () => any, close: () => Promise<void> }>}
 */
async function startControlServer(handlers) {
  let lastResult;
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'POST' && url.pathname === '/result') {
        lastResult = JSON.parse(await readBody(req));
        return send(res, 200, { ok: true });
      }
      if (req.method === 'POST' && url.pathname === '/screenshot') {
        const name = sanitize(url.searchParams.get('name') ?? 'screenshot');
        const file = await handlers.screenshot(name);
        return send(res, file ? 200 : 501, file ? { file } : { error: 'screenshots need the browser host' });
      }
      if (req.method === 'POST' && url.pathname === '/type') {
        // Types into the real workbench (e.g. an input box a command opened), then presses Enter.
        const { text, selector, waitForValue } = JSON.parse(await readBody(req));
        const ok = await handlers.type(text === null ? null : String(text), String(selector || '.quick-input-widget input'), Boolean(waitForValue));
        return send(res, ok ? 200 : 501, ok ? { ok } : { error: 'typing needs the browser host' });
      }
      if (req.method === 'POST' && url.pathname === '/workbench') {
        // Reads or clicks in the workbench page itself (a modal dialog), as a user would.
        const result = handlers.workbench ? await handlers.workbench(JSON.parse(await readBody(req))) : undefined;
        return send(res, result ? 200 : 501, result ?? { error: 'workbench access needs the browser host' });
      }
      if (req.method === 'POST' && url.pathname === '/webview') {
        // Acts inside the extension's webview as a user would: click, press keys, read text.
        const result = await handlers.webview(JSON.parse(await readBody(req)));
        return send(res, result ? 200 : 501, result ?? { error: 'webview access needs the browser host' });
      }
      send(res, 404, { error: 'unknown' });
    } catch (err) {
      send(res, 500, { error: String(err && err.message ? err.message : err) });
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    result: () => lastResult,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

// The name becomes a file name under test-results/; keep it to a safe alphabet.
function sanitize(name) {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'screenshot';
}

module.exports = { startControlServer };
