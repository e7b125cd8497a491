/**
 * Go's `net/url` (Go 1.26), the parts `url.Parse`, `URL.Query` and `url.ParseQuery` use: `parse`,
 * `parseAuthority`, `parseHost`, `unescape`, `parseQuery`, with Go's error texts. Go works on bytes:
 * so does this, through UTF-8. Pulumi reads its backend URLs with these (s3Url.ts of
 * shared/backend follows it from there). Pure: no I/O, no Node built-ins.
 */

/** Go's own parse error text (e.g. `invalid URL escape "%zz"`). */
export class GoUrlError extends Error {}
/** A percent-decoded part that is not UTF-8: Go keeps such bytes, S3 keys and headers cannot carry them. */
export class NotUtf8Error extends Error {}

type GoEncoding = 'path' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

export interface GoUrl {
  scheme: string;
  opaque: string;
  host: string;
  path: string;
  rawQuery: string;
}

/** url.Values with the order of first appearance kept, so that errors are reported deterministically (Go's map order is random). */
export type GoValues = Map<string, string[]>;

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** ASCII bytes a host may hold unescaped besides letters and digits (gen_encoding_table.go `shouldEscape`, encodeHost). */
const HOST_PUNCTUATION = new Set('!$&\'()*+,;=:[]<>"-_.~');
const isAlphanumeric = (byte: number) => (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
const hostShouldEscape = (byte: number) => byte >= 0x80 || !(isAlphanumeric(byte) || HOST_PUNCTUATION.has(String.fromCharCode(byte)));
const isHex = (byte: number) => (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
const unhex = (byte: number) => (byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10);
const quote = (text: string) => JSON.stringify(text);

/** Go's `unescape` on the UTF-8 bytes of `text`, with its errors. */
function goUnescapeBytes(text: string, mode: GoEncoding): Uint8Array {
  const s = utf8.encode(text);
  const slice = (from: number, to: number) => lenientUtf8.decode(s.subarray(from, Math.min(to, s.length)));
  for (let i = 0; i < s.length;) {
    if (s[i] === 0x25) {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) throw new GoUrlError(`invalid URL escape ${quote(slice(i, i + 3))}`);
      const escaped = slice(i, i + 3);
      if (mode === 'host' && unhex(s[i + 1]) < 8 && escaped !== '%25') throw new GoUrlError(`invalid URL escape ${quote(escaped)}`);
      const decoded = (unhex(s[i + 1]) << 4) | unhex(s[i + 2]);
      if (mode === 'zone' && escaped !== '%25' && decoded !== 0x20 && hostShouldEscape(decoded)) throw new GoUrlError(`invalid URL escape ${quote(escaped)}`);
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && s[i] < 0x80 && hostShouldEscape(s[i])) throw new GoUrlError(`invalid character ${quote(slice(i, i + 1))} in host name`);
      i++;
    }
  }
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === 0x25) {
      out.push((unhex(s[i + 1]) << 4) | unhex(s[i + 2]));
      i += 2;
    } else out.push(s[i] === 0x2b && mode === 'queryComponent' ? 0x20 : s[i]);
  }
  return Uint8Array.from(out);
}

function goUnescape(text: string, mode: GoEncoding): string {
  const bytes = goUnescapeBytes(text, mode);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new NotUtf8Error(text);
  }
}

/** Go's `validOptionalPort`: '' or ':' and digits. */
const validOptionalPort = (port: string) => port === '' || /^:[0-9]*$/.test(port);

/** Close enough to `netip.ParseAddr` for a bracketed host: an IPv6 address (an IPv4 one is refused, as Go does). */
function checkIpLiteral(address: string): void {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) throw new GoUrlError('invalid IP-literal');
  const [head, tail, more] = address.replace(/%.*$/, '').split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const all = [...groups(head), ...groups(tail)];
  const lastIsV4 = all.length > 0 && /^\d{1,3}(\.\d{1,3}){3}$/.test(all[all.length - 1]);
  const count = all.length + (lastIsV4 ? 1 : 0);
  const valid = more === undefined && all.slice(0, lastIsV4 ? -1 : undefined).every((g) => /^[0-9a-fA-F]{1,4}$/.test(g)) && (tail === undefined ? count === 8 : count < 8);
  if (!valid) throw new GoUrlError(`invalid host: ParseAddr(${quote(address)}): not an IPv6 address`);
}

/** Go's `parseHost` (host[:port], or an IP literal in brackets). */
function goParseHost(scheme: string, host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new GoUrlError('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new GoUrlError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new GoUrlError(`invalid port ${quote(colonPort)} after host`);
    const hostname = host.slice(1, close);
    const zoneAt = hostname.indexOf('%25');
    const address = zoneAt < 0 ? goUnescape(hostname, 'host') : goUnescape(hostname.slice(0, zoneAt), 'host') + goUnescape(hostname.slice(zoneAt), 'zone');
    checkIpLiteral(address);
    return `[${address}]${colonPort}`;
  }
  let colon = host.indexOf(':');
  // Go is strict about several colons only for http and https; other schemes take the port after the last one.
  if (colon >= 0 && scheme !== 'http' && scheme !== 'https') colon = host.lastIndexOf(':');
  if (colon >= 0 && !validOptionalPort(host.slice(colon))) throw new GoUrlError(`invalid port ${quote(host.slice(colon))} after host`);
  return goUnescape(host, 'host');
}

/** Go's `validUserinfo`. */
const validUserinfo = (userinfo: string) => /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo);

/** Go's `parseAuthority`: the host, after checking the userinfo (which gocloud then ignores). */
function goParseAuthority(scheme: string, authority: string): string {
  const at = authority.lastIndexOf('@');
  const host = goParseHost(scheme, at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return host;
  const userinfo = authority.slice(0, at);
  if (!validUserinfo(userinfo)) throw new GoUrlError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  for (const part of colon < 0 ? [userinfo] : [userinfo.slice(0, colon), userinfo.slice(colon + 1)]) goUnescapeBytes(part, 'userPassword');
  return host;
}

/** Go's `getScheme` (lowercased as `parse` does); '' when the text does not start with one. */
function goScheme(raw: string): { scheme: string; rest: string } {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw);
  if (raw.startsWith(':')) throw new GoUrlError('missing protocol scheme');
  return match ? { scheme: match[1].toLowerCase(), rest: raw.slice(match[0].length) } : { scheme: '', rest: raw };
}

/** Go's `url.Parse`: the fragment cut off first (it must unescape, though nothing reads it). */
export function goParseUrl(raw: string): GoUrl {
  const hashAt = raw.indexOf('#');
  const url = goParseWithoutFragment(hashAt < 0 ? raw : raw.slice(0, hashAt));
  if (hashAt >= 0) goUnescapeBytes(raw.slice(hashAt + 1), 'fragment');
  return url;
}

/** Go's `parse`: control bytes refused, the scheme, the query left raw, then the authority and the path. */
function goParseWithoutFragment(raw: string): GoUrl {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new GoUrlError('net/url: invalid control character in URL');
  const { scheme, rest: afterScheme } = goScheme(raw);
  let rest = afterScheme;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else if (rest.includes('?')) [rest, rawQuery] = [rest.slice(0, rest.indexOf('?')), rest.slice(rest.indexOf('?') + 1)];
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, opaque: rest, host: '', path: '', rawQuery };
    if (rest.split('/')[0].includes(':')) throw new GoUrlError('first path segment in URL cannot contain colon');
  }
  let host = '';
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    host = goParseAuthority(scheme, slash < 0 ? rest.slice(2) : rest.slice(2, slash));
    rest = slash < 0 ? '' : rest.slice(slash);
  }
  return { scheme, opaque: '', host, path: goUnescape(rest, 'path'), rawQuery };
}

/** Go's `url.Values` from `URL.Query()`: pairs with a ';' or a bad escape dropped silently, and nothing past 10000 pairs. */
export function goParseQuery(rawQuery: string): GoValues {
  const values: GoValues = new Map();
  if (rawQuery.split('&').length > 10000) return values;
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const equals = pair.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = goUnescape(equals < 0 ? pair : pair.slice(0, equals), 'queryComponent');
      value = goUnescape(equals < 0 ? '' : pair.slice(equals + 1), 'queryComponent');
    } catch (error) {
      if (error instanceof GoUrlError) continue;
      throw error;
    }
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  return values;
}

/** `Values.Get`: the first value, or ''. */
export const valuesGet = (query: GoValues, key: string) => query.get(key)?.[0] ?? '';
