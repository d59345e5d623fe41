/**
 * A base URL that carries a user name and password (`http://bob:pass@host`). The service takes
 * no credential but its APIKey (docs/wire.md#authentication-rule-2), so such a URL would only
 * print and store the password in every request shown; the environments file refuses it, and
 * the refusal shows the URL with the password masked.
 */
import { MASK } from '../redact';

/** The `user:password@` part of an http(s) URL's authority, with the scheme and the rest around it. */
const WITH_USERINFO = /^(https?:\/\/)([^/?#]*)@([^/?#@]*)(.*)$/is;

/** Whether an http(s) URL names a user (and perhaps a password) before its host. */
export function hasUserinfo(url: string): boolean {
  return WITH_USERINFO.test(url);
}

/**
 * The URL with its password masked: `http://bob:••••@host`. Without a password the user part
 * itself is masked (`http://••••@host`), since a token is sometimes written there.
 */
export function maskUserinfo(url: string): string {
  const m = WITH_USERINFO.exec(url);
  if (!m) return url;
  const [, scheme, userinfo, host, rest] = m;
  const colon = userinfo!.indexOf(':');
  const shown = colon >= 0 ? `${userinfo!.slice(0, colon)}:${MASK}` : MASK;
  return `${scheme}${shown}@${host}${rest}`;
}

/** The located problem's words for a base URL with userinfo; never the password itself. */
export function userinfoMessage(url: string): string {
  return `baseUrl must not carry a user name or password (${maskUserinfo(url)}): the service takes no credential but its APIKey (docs/wire.md#authentication-rule-2), and a password here would be printed and stored with every request. Write the address without "user:password@"; keep a private value in "variables" and name it in "secrets"`;
}
