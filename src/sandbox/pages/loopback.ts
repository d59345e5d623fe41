/**
 * Who may use the SOAP test form: only callers on this machine (docs/wire.md#transport-rule-8, docs/wire.md#errors-limits-and-versions). The
 * decision is made from the connection's own address, never from headers such as
 * X-Forwarded-For or Host, which any client can write.
 */
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * True for 127.0.0.0/8, ::1 and IPv4-mapped loopback (::ffff:127.x.y.z, as a dual-stack socket
 * reports an IPv4 peer). BlockList compares addresses numerically, so spellings such as
 * 0:0:0:0:0:0:0:1 or ::ffff:7f00:1 are recognised as well.
 */
export function isLoopback(remoteAddress: string | undefined): boolean {
  if (!remoteAddress) return false;
  const family = isIP(remoteAddress);
  if (family === 4) return LOOPBACK.check(remoteAddress, 'ipv4');
  if (family === 6) return LOOPBACK.check(remoteAddress, 'ipv6');
  return false;
}
