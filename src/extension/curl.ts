/**
 * Copy as curl. The request is redacted, so the masked API key becomes a reference to
 * $CARRIER_API_KEY: the copied command works in a shell that exports the key, and the key
 * itself never reaches the clipboard.
 */
import type { HttpRequestSpec } from '../core';
import { engine } from './engineBundle';

export function curlWithKeyVariable(request: HttpRequestSpec): string {
  // curl computes these itself; a Content-Length measured on the real body would be wrong for
  // the body with the variable in it.
  const headers = request.headers.filter(([name]) => !/^(content-length|host|connection|transfer-encoding)$/i.test(name));
  // core quotes every argument in single quotes: close, splice the variable in double quotes, reopen.
  const { toCurl, MASK } = engine();
  return toCurl({ ...request, headers })
    .split(MASK)
    .join(`'"$CARRIER_API_KEY"'`);
}
