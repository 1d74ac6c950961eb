import ipaddr from 'ipaddr.js';

/** Global unicast, 2000::/3: the only IPv6 block a webhook may reach (the rest is special, or embeds IPv4). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether a webhook may be sent to `address` (an IPv4 or IPv6 literal, as a URL or DNS gives it):
 * only a public unicast address. Refused: private (10/8, 172.16/12, 192.168/16), loopback (unless
 * `allowLoopback`, for development), link-local (169.254/16, fe80::/10, the cloud metadata
 * address among them), carrier-grade NAT (100.64/10), multicast, broadcast, unspecified, reserved
 * and documentation ranges (ipaddr.js's ranges); and every IPv6 address outside global unicast
 * (2000::/3) or in one of its special blocks, so every IPv6 spelling of an IPv4 address
 * (IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4, Teredo) is refused
 * whatever it embeds, but for IPv4-mapped `::ffff:a.b.c.d`, judged as the IPv4 address it maps.
 * Anything that is not an address is refused.
 *
 * @example
 * ```ts
 * isDeliverableAddress('93.184.215.14', false); // true
 * isDeliverableAddress('::127.0.0.1', false); // false
 * ```
 */
export function isDeliverableAddress(address: string, allowLoopback: boolean): boolean {
  const parsed = parseAddress(address);
  if (parsed === null) return false;
  const range = parsed.range();
  if (allowLoopback && range === 'loopback') return true;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return false;
  return range === 'unicast';
}

/** Whether `address` is a loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127.x). @internal */
export function isLoopbackAddress(address: string): boolean {
  return parseAddress(address)?.range() === 'loopback';
}

/**
 * A dotted-quad IPv4 address, or an IPv6 address (IPv4-mapped ones as the IPv4 address they map);
 * `null` for anything else. IPv6 is first made canonical by the URL parser (hex only): ipaddr.js
 * reads any embedded dotted IPv4 (`::127.0.0.1`, IPv4-compatible) as IPv4-mapped.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address);
  const url = `http://[${address}]/`;
  if (!address.includes(':') || !URL.canParse(url)) return null;
  const v6 = ipaddr.IPv6.parse(new URL(url).hostname.slice(1, -1));
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

/**
 * The host of a URL (`URL.hostname`, which the URL parser has made canonical: dotted IPv4, bracketed
 * IPv6) as an address literal without brackets, or `null` for a name. @internal
 */
export function addressLiteralOf(hostname: string): string | null {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return /^[\d.]+$/.test(bare) || bare.includes(':') ? bare : null;
}
