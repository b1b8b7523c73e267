// Which addresses a webhook may be posted to: public unicast only, unless the operator allows private ones or names hosts.

/** Ranges no webhook reaches by default: private, loopback, link-local, shared, documentation, multicast, reserved. */
const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
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
];
const PRIVATE_V6: ReadonlyArray<readonly [string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
];

/** An IPv4 address as its 4 bytes, or null (dotted decimal, no leading zeros, as Node's isIP takes it). */
function bytesOf4(text: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (m === null) return null;
  const out = m.slice(1).map((d) => (d.length > 1 && d.startsWith('0') ? NaN : Number(d)));
  return out.every((n) => n <= 255) ? out : null;
}

/** An IPv6 address (a zone ignored, an IPv4 tail allowed) as its 16 bytes, or null. */
function bytesOf6(text: string): number[] | null {
  let t = text.replace(/%[^%]*$/, '');
  const tail4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  let last: number[] = [];
  if (tail4 !== null) {
    const v4 = bytesOf4(tail4[2]!);
    if (v4 === null) return null;
    t = tail4[1]!.endsWith('::') ? tail4[1]! : tail4[1]!.slice(0, -1);
    last = v4;
  }
  const halves = t.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string): string[] => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const want = 8 - last.length / 2;
  const missing = want - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const out: number[] = [];
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    const v = parseInt(g, 16);
    out.push(v >> 8, v & 255);
  }
  return [...out, ...last];
}

/** Whether the first `prefix` bits of two byte strings agree. */
function samePrefix(a: readonly number[], b: readonly number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const n = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - n)) & 0xff;
    if (((a[bit / 8]! ^ b[bit / 8]!) & mask) !== 0) return false;
  }
  return true;
}

const NETS_V4 = PRIVATE_V4.map(([net, p]) => [bytesOf4(net)!, p] as const);
const NETS_V6 = PRIVATE_V6.map(([net, p]) => [bytesOf6(net)!, p] as const);

/** 4 or 6 for an IP address literal, 0 for anything else (as node:net's isIP, without the import: a pure room). */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (bytesOf4(text) !== null) return 4;
  return bytesOf6(text) !== null ? 6 : 0;
}

/** True for an address a webhook may not reach by default (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const v4 = bytesOf4(address);
  if (v4 !== null) return NETS_V4.some(([net, p]) => samePrefix(v4, net, p));
  const v6 = bytesOf6(address);
  if (v6 === null) return true;
  // An IPv4-mapped address (::ffff:a.b.c.d) is its IPv4 address.
  if (v6.slice(0, 10).every((b) => b === 0) && v6[10] === 255 && v6[11] === 255) {
    const mapped = v6.slice(12);
    return NETS_V4.some(([net, p]) => samePrefix(mapped, net, p));
  }
  return NETS_V6.some(([net, p]) => samePrefix(v6, net, p));
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
  if (ipFamily(host) !== 0 && !allowedHost && !policy.allowPrivate && isPrivateAddress(host)) {
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
