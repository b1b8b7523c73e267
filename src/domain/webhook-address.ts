// Which addresses a webhook may be posted to: public unicast only, unless the operator allows private ones or names hosts.
import { BlockList, isIP } from 'node:net';

/** Ranges no webhook reaches by default: private, loopback, link-local, shared, documentation, multicast, reserved. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
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
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** True for an address a webhook may not reach by default (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** What the operator allows beyond public https addresses (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOW_HOSTS). */
export interface WebhookAddressPolicy {
  allowPrivate: boolean;
  /** Host names or addresses (lower case) allowed whatever they resolve to, over http too. */
  allowHosts: readonly string[];
}

/** A URL's host as compared: lower case, IPv6 without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

export function hostAllowed(policy: WebhookAddressPolicy, host: string): boolean {
  return policy.allowHosts.includes(host.toLowerCase());
}

/**
 * Why a URL cannot be a webhook's (null: it may, as far as can be told without resolving it):
 * only http(s), no credentials, https unless the operator allows the host or private addresses,
 * and a literal address must be public unless allowed.
 */
export function urlRefusal(policy: WebhookAddressPolicy, text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be an https URL';
  if (url.username !== '' || url.password !== '') return 'url must not carry credentials';
  if (text.length > 2048) return 'url must be at most 2048 characters';
  const host = hostOf(url);
  const allowedHost = hostAllowed(policy, host);
  if (url.protocol === 'http:' && !allowedHost && !policy.allowPrivate) {
    return 'url must be an https URL (http only for hosts the operator allows)';
  }
  if (isIP(host) !== 0 && !allowedHost && !policy.allowPrivate && isPrivateAddress(host)) {
    return `url must reach a public address; ${host} is private, loopback or reserved`;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!allowedHost && !policy.allowPrivate) return 'url must reach a public address; localhost is loopback';
  }
  return null;
}

/** Whether a resolved address of `host` may be connected to (checked at connect time: DNS rebinding). */
export function addressAllowed(policy: WebhookAddressPolicy, host: string, address: string): boolean {
  return policy.allowPrivate || hostAllowed(policy, host) || !isPrivateAddress(address);
}
