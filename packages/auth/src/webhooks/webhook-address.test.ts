import { describe, expect, it } from 'vitest';
import { isDeliverableAddress, isLoopbackAddress } from './webhook-address.js';

describe('isDeliverableAddress', () => {
  it('accepts public unicast addresses, and an IPv4-mapped public one', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8']) {
      expect(isDeliverableAddress(a, false), a).toBe(true);
    }
  });

  it('refuses private, loopback, link-local, unique-local, CGNAT, multicast, unspecified and reserved addresses', () => {
    for (const a of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '127.1.2.3',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '198.18.0.1',
      '::',
      '::1',
      'fe80::1',
      'fec0::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
      'not an address',
      '',
    ]) {
      expect(isDeliverableAddress(a, false), a).toBe(false);
    }
  });

  it('refuses every IPv6 spelling of an inner IPv4 address: IPv4-compatible, IPv4-mapped, NAT64, 6to4, Teredo', () => {
    for (const a of [
      '::127.0.0.1',
      '::7f00:1',
      '::10.0.0.1',
      '::169.254.169.254',
      '::ffff:10.0.0.1',
      '::FFFF:a00:1',
      '::ffff:169.254.169.254',
      '::ffff:0:a00:1',
      '64:ff9b::a00:1',
      '64:ff9b::169.254.169.254',
      '64:ff9b:1::a00:1',
      '2002:a00:1::',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:f5ff:fffe',
      '100::1',
    ]) {
      expect(isDeliverableAddress(a, false), a).toBe(false);
      expect(isDeliverableAddress(a, true), a).toBe(false);
    }
  });

  it('accepts loopback only when allowed (development), and nothing else more', () => {
    expect(isDeliverableAddress('127.0.0.1', true)).toBe(true);
    expect(isDeliverableAddress('::1', true)).toBe(true);
    expect(isDeliverableAddress('::ffff:127.0.0.1', true)).toBe(true);
    expect(isDeliverableAddress('::ffff:127.0.0.1', false)).toBe(false);
    expect(isDeliverableAddress('127.1', true)).toBe(false); // not dotted-quad: neither DNS nor a URL gives it
    expect(isDeliverableAddress('10.0.0.1', true)).toBe(false);
    expect(isDeliverableAddress('169.254.169.254', true)).toBe(false);
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('8.8.8.8')).toBe(false);
  });
});
