// `node autocannon.js <spec.json> <connections> <seconds>`: autocannon (its programmatic API)
// posting one prebuilt envelope (spec.json: method, url, headers, body) on `connections`
// connections for `seconds`: the neutral load generator of the sandbox-load and carrier-load
// rows. Prints one JSON line: 2xx replies, other replies, errors, the seconds it ran, and the
// p50 and p99 latency. autocannon's own histogram counts whole milliseconds, too coarse to
// compare a p99 of a few ms within 10 %, so each reply's time (a fraction of a ms, from its
// 'response' event) also goes into a histogram as carrier load keeps them
// (src/core/load/histogram.ts: microseconds, 3 significant digits). Plain JavaScript, so the
// process loads autocannon and nothing else.
const fs = require('node:fs');
const autocannon = require('autocannon');
const hdr = require('hdr-histogram-js');

const [specFile, connections, seconds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
const latencies = hdr.build({ bitBucketSize: 32, autoResize: true, lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3, useWebAssembly: false });
const instance = autocannon(
  {
    url: spec.url,
    method: spec.method,
    headers: Object.fromEntries(spec.headers),
    body: spec.body,
    connections,
    duration: seconds,
  },
  (err, result) => {
    if (err) {
      process.stderr.write(`${err.stack || String(err)}\n`);
      process.exit(1);
    }
    const ms = (us) => us / 1000;
    process.stdout.write(
      `${JSON.stringify({
        ok: result['2xx'],
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        seconds: result.duration,
        p50Ms: ms(latencies.getValueAtPercentile(50)),
        p99Ms: ms(latencies.getValueAtPercentile(99)),
        autocannonP99Ms: result.latency.p99,
      })}\n`,
    );
  },
);
instance.on('response', (client, statusCode, bytes, responseTime) => {
  if (statusCode >= 200 && statusCode < 300) latencies.recordValue(Math.max(1, Math.round(responseTime * 1000)));
});
