/** Default prefix length IPv6 clients are grouped by: a /64, what one site or host is usually given. */
export const DEFAULT_IPV6_PREFIX_LENGTH = 64;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const GROUP = /^[0-9a-f]{1,4}$/;

/**
 * The rate-limit subject of a client address: an IPv4 address as it is (an IPv4-mapped IPv6
 * address, `::ffff:192.0.2.1`, as its IPv4 address), an IPv6 address as its network of
 * `ipv6PrefixLength` bits (`2001:db8:0:0:0:0:0:0/64`), since one client commonly holds a whole
 * /64 and would otherwise get a bucket per address. Anything else (no address, a name) is its own
 * subject, unchanged. Written without `node:net`: the core runs on workerd too. The leaked-key
 * routes key their rate limits by it; an app can key its own limits (or connection caps) the same way.
 *
 * @example
 * ```ts
 * import { clientSubjectOf } from '@drops/auth';
 *
 * clientSubjectOf('2001:db8:1:2::7'); // '2001:db8:1:2:0:0:0:0/64'
 * clientSubjectOf('::ffff:192.0.2.1'); // '192.0.2.1'
 * ```
 */
export function clientSubjectOf(ip: string, ipv6PrefixLength: number = DEFAULT_IPV6_PREFIX_LENGTH): string {
  const groups = ipv6Groups(ip.toLowerCase().replace(/%.*$/, ''));
  if (groups === null) return ip;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  const masked = groups.map((g, i) => {
    const bits = Math.min(16, Math.max(0, ipv6PrefixLength - i * 16));
    return bits === 0 ? 0 : g & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${masked.map((g) => g.toString(16)).join(':')}/${ipv6PrefixLength}`;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail included), or `null` if it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!address.includes(':')) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (const [i, part] of parts.entries()) {
      const v4 = i === parts.length - 1 ? IPV4.exec(part) : null;
      if (v4 !== null) {
        const octets = v4.slice(1).map(Number);
        if (octets.some((o) => o > 255)) return null;
        out.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
      } else if (GROUP.test(part)) out.push(parseInt(part, 16));
      else return null;
    }
    return out;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}
