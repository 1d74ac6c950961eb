import { describe, expect, it } from 'vitest';
import { clientSubjectOf } from './client-subject.js';

describe('clientSubjectOf', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientSubjectOf('192.0.2.7')).toBe('192.0.2.7');
    expect(clientSubjectOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientSubjectOf('::FFFF:c000:0207')).toBe('192.0.2.7');
  });

  it('groups every address of one /64 into one subject, and tells two /64s apart', () => {
    const subjects = ['2001:db8:1:2::1', '2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2:0:0:0:0', '2001:0db8:0001:0002::a%eth0'].map(
      (ip) => clientSubjectOf(ip),
    );
    expect(new Set(subjects)).toEqual(new Set(['2001:db8:1:2:0:0:0:0/64']));
    expect(clientSubjectOf('2001:db8:1:3::1')).not.toBe(subjects[0]);
    expect(clientSubjectOf('::1')).toBe('0:0:0:0:0:0:0:0/64');
  });

  it('groups by any prefix length', () => {
    expect(clientSubjectOf('2001:db8:1:2::1', 48)).toBe('2001:db8:1:0:0:0:0:0/48');
    expect(clientSubjectOf('2001:db8:1:ff:1::1', 56)).toBe('2001:db8:1:0:0:0:0:0/56');
    expect(clientSubjectOf('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2:0:0:0:1/128');
  });

  it('leaves anything that is not an address as it is', () => {
    for (const value of ['', 'localhost', '1:2:3', '1::2::3', '1:2:3:4:5:6:7:8:9', 'g::1', '::1.2.3.999']) {
      expect(clientSubjectOf(value)).toBe(value);
    }
  });
});
