/**
 * The least a relay in another process can do: every connection piped byte for byte to the
 * target (argv[2], `http://host:port`), Nagle off both ways. The inspector rows compare
 * `carrier inspect` with it, so that the hop itself — a second process on the path, its wake-ups
 * and loopback copies — is told apart from what the inspector adds. Prints `{"url": …}` once
 * listening; stops when stdin closes.
 */
import * as net from 'node:net';

const target = new URL(process.argv[2] ?? '');
const server = net.createServer((client) => {
  const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` })}\n`);
});
process.stdin.on('end', () => process.exit(0)).resume();
