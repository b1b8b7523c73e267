// Which webhook URLs and addresses are allowed: public https by default; private, loopback, link-local and reserved ranges only when the operator allows them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressAllowed, isPrivateAddress, urlRefusal } from '../../src/domain/webhook-address.js';

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
