// `node runnerRawClient.js <spec.json> <requests> <concurrency>`: the wire at its plainest, the
// other side of the runner-throughput row — undici posting one prebuilt envelope (spec.json:
// url, headers, body) `requests` times with `concurrency` in flight, reading every body. Plain
// JavaScript, so the process loads undici and nothing else. Exits 1 on any non-200 reply.
const fs = require('node:fs');
const { Agent, request } = require('undici');

async function main() {
  const [specFile, total, concurrency] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
  const body = Buffer.from(spec.body, 'utf8');
  const headers = Object.fromEntries(spec.headers);
  const agent = new Agent();
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      const r = await request(spec.url, { method: spec.method, headers, body, dispatcher: agent });
      await r.body.arrayBuffer();
      if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  await agent.close();
}

main().catch((err) => {
  process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
  process.exit(1);
});
