// Which webhook URLs and addresses are allowed: public https by default; private, loopback, link-local and reserved ranges only when the operator allows them.
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { BlockList, isIP } from 'node:net';
import { addressAllowed, ipFamily, isPrivateAddress, urlRefusal } from '../../src/domain/webhook-address.js';

const strict = { allowPrivate: false, allowHosts: [] };

test('private, loopback, link-local, shared, reserved and multicast addresses are private; public ones are not', () => {
  for (const a of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ]) {
    assert.equal(isPrivateAddress(a), true, a);
  }
  for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(isPrivateAddress(a), false, a);
  }
});

test('urls: https to a public address passes; http, private literals and localhost are refused unless allowed', () => {
  assert.equal(urlRefusal(strict, 'https://93.184.216.34/x'), null);
  assert.equal(urlRefusal(strict, 'https://hooks.example.com/x'), null);
  assert.match(urlRefusal(strict, 'http://hooks.example.com/x') ?? '', /https/);
  assert.match(urlRefusal(strict, 'https://10.0.0.1/x') ?? '', /public/);
  assert.match(urlRefusal(strict, 'https://localhost:8080/x') ?? '', /public/);
  assert.equal(urlRefusal({ allowPrivate: true, allowHosts: [] }, 'http://127.0.0.1:9/x'), null);
  assert.equal(urlRefusal({ allowPrivate: false, allowHosts: ['hooks.internal'] }, 'http://hooks.internal/x'), null);
  assert.equal(
    addressAllowed({ allowPrivate: false, allowHosts: ['hooks.internal'] }, 'hooks.internal', '10.1.1.1'),
    true,
  );
  assert.equal(addressAllowed(strict, 'hooks.example.com', '10.1.1.1'), false);
});

describe('address parsing without node:net (the domain room is pure)', () => {
  it('ipFamily agrees with node:net isIP on literals and non-literals', () => {
    const samples = [
      '1.2.3.4',
      '255.255.255.255',
      '256.1.1.1',
      '01.2.3.4',
      '1.2.3',
      '::',
      '::1',
      'fe80::1%eth0',
      '2001:db8::8a2e:370:7334',
      '::ffff:127.0.0.1',
      '64:ff9b::1.2.3.4',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      'gggg::1',
      'example.com',
      '',
      '12345::',
      '1:2:3:4:5:6:1.2.3.4',
      '::1.2.3.4',
    ];
    for (const s of samples) assert.equal(ipFamily(s), isIP(s), s);
  });

  it('isPrivateAddress agrees with a node:net BlockList of the same ranges on seeded random addresses', () => {
    const list = new BlockList();
    for (const [n, p] of [
      ['0.0.0.0', 8],
      ['10.0.0.0', 8],
      ['100.64.0.0', 10],
      ['127.0.0.0', 8],
      ['169.254.0.0', 16],
      ['172.16.0.0', 12],
      ['192.0.0.0', 24],
      ['192.0.2.0', 24],
      ['192.168.0.0', 16],
      ['198.18.0.0', 15],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['224.0.0.0', 4],
      ['240.0.0.0', 4],
    ] as const)
      list.addSubnet(n, p, 'ipv4');
    for (const [n, p] of [
      ['::', 128],
      ['::1', 128],
      ['64:ff9b::', 96],
      ['100::', 64],
      ['2001:db8::', 32],
      ['fc00::', 7],
      ['fe80::', 10],
      ['ff00::', 8],
    ] as const)
      list.addSubnet(n, p, 'ipv6');
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let i = 0; i < 5000; i++) {
      const v4 = [next() % 256, next() % 256, next() % 256, next() % 256].join('.');
      assert.equal(isPrivateAddress(v4), list.check(v4, 'ipv4'), v4);
      const first = [0xfe80, 0xfc00, 0xfd12, 0x2001, 0xff02, 0x0064, 0x0100, 0x2a00][next() % 8]!;
      const v6 = [first, ...Array.from({ length: 7 }, () => next() % 65536)].map((g) => g.toString(16)).join(':');
      assert.equal(isPrivateAddress(v6), list.check(v6, 'ipv6'), v6);
    }
  });
});
