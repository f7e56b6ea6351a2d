import { isIPv4, isIPv6 } from "node:net";

/**
 * The part of a client address that names one visitor, for rate limits. An IPv6 subscriber is
 * usually given a whole /64 and can pick a new address in it for every request, so IPv6
 * addresses count by their first four groups; IPv4 addresses (also when IPv4-mapped) count
 * whole.
 */
export function visitorKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address) || !isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

/**
 * The network an address belongs to, coarse enough not to single out a subscriber: its /24 for
 * IPv4 (also when IPv4-mapped), its /48 for IPv6. For logs that must not keep whole addresses.
 */
export function addressNetwork(address: string): string {
  const ipv4 = /^(?:::ffff:)?(\d+\.\d+\.\d+)\.\d+$/i.exec(address);
  if (ipv4 && isIPv4(address.replace(/^::ffff:/i, ""))) return `${ipv4[1]}.0/24`;
  if (!isIPv6(address.split("%")[0]!)) return "unknown";
  return `${expandIPv6(address).slice(0, 3).join(":")}::/48`;
}

/** The eight groups of an IPv6 address, "::" filled in, without leading zeros. */
function expandIPv6(address: string): string[] {
  const [head = "", tail] = address.toLowerCase().split("%")[0]!.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}
