// `node bareServer.js <reply.json>`: the least a Node mock can do, the other side of the
// sandbox-load row and the server of the carrier-load row — node:http answering every POST, once
// its body is read, with one recorded reply (reply.json: status, headers, body in base64), the
// sandbox's own bytes. Plain JavaScript, so the process loads nothing else. `GET /__bench/stats`
// answers how many POSTs it answered and when the first arrived and the last was answered (ms,
// this process's clock), and starts counting afresh: a rate both clients of a row are measured
// by on the same clock. Prints `{"url": …}` once listening; stops when stdin closes.
const fs = require('node:fs');
const http = require('node:http');

const reply = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const body = Buffer.from(reply.body, 'base64');
const headers = { ...Object.fromEntries(reply.headers), 'Content-Length': String(body.length) };
let count = 0;
let firstMs = 0;
let lastMs = 0;

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/__bench/stats') {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ count, firstMs, lastMs }));
    count = 0;
    return;
  }
  const arrived = performance.now();
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(reply.status, headers).end(body);
    if (count++ === 0) firstMs = arrived;
    lastMs = performance.now();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.stdin.on('end', () => process.exit(0)).resume();
