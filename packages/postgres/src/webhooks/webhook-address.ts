import ipaddr from 'ipaddr.js';

/**
 * Whether a webhook may be sent to `address` (an IPv4 or IPv6 literal, as DNS answered it): only a
 * public unicast address. Refused: private (10/8, 172.16/12, 192.168/16), loopback (unless
 * `allowLoopback`, for development), link-local (169.254/16, fe80::/10, the cloud metadata
 * address among them), unique-local (fc00::/7), carrier-grade NAT (100.64/10), multicast,
 * broadcast, unspecified, reserved and documentation ranges, and the IPv6 forms that carry an IPv4
 * address (IPv4-mapped, NAT64, 6to4, Teredo), judged as the IPv4 address where ipaddr.js can.
 * Anything that is not an address is refused.
 *
 * @example
 * ```ts
 * isDeliverableAddress('93.184.215.14', false); // true
 * isDeliverableAddress('::ffff:10.0.0.1', false); // false
 * ```
 */
export function isDeliverableAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // ::ffff:a.b.c.d becomes a.b.c.d
  const range = parsed.range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/** Whether `address` is a loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127.x). @internal */
export function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}
