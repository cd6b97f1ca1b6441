/**
 * Which addresses an untrusted server URL may reach: public unicast only. Refuses loopback, private,
 * link-local, CGNAT, unique-local IPv6, multicast and reserved ranges, cloud metadata endpoints, and
 * IPv6 forms that embed such an IPv4 address (mapped, compatible, NAT64, 6to4).
 */
import { isIP } from "node:net";

interface Range {
  base: number[];
  bits: number;
  reason: string;
}

const v4 = (text: string): number[] => text.split(".").map(Number);

const IPV4_RANGES: Range[] = [
  { base: v4("169.254.169.254"), bits: 32, reason: "a cloud metadata address" },
  { base: v4("0.0.0.0"), bits: 8, reason: 'a "this network" address' },
  { base: v4("10.0.0.0"), bits: 8, reason: "a private address" },
  { base: v4("100.64.0.0"), bits: 10, reason: "a carrier-grade NAT (shared) address" },
  { base: v4("127.0.0.0"), bits: 8, reason: "a loopback address" },
  { base: v4("169.254.0.0"), bits: 16, reason: "a link-local address" },
  { base: v4("172.16.0.0"), bits: 12, reason: "a private address" },
  { base: v4("192.0.0.0"), bits: 24, reason: "an IETF protocol address" },
  { base: v4("192.0.2.0"), bits: 24, reason: "a documentation address" },
  { base: v4("192.168.0.0"), bits: 16, reason: "a private address" },
  { base: v4("198.18.0.0"), bits: 15, reason: "a benchmarking address" },
  { base: v4("198.51.100.0"), bits: 24, reason: "a documentation address" },
  { base: v4("203.0.113.0"), bits: 24, reason: "a documentation address" },
  { base: v4("224.0.0.0"), bits: 4, reason: "a multicast address" },
  { base: v4("240.0.0.0"), bits: 4, reason: "a reserved address" },
];

/** 16 bytes from 8 groups: `fd00:ec2::254` → [0xfd, 0x00, 0x0e, 0xc2, 0, ..., 0x02, 0x54]. */
const v6 = (groups: number[]): number[] => groups.flatMap((group) => [group >> 8, group & 0xff]);
const prefix = (...groups: number[]) => v6([...groups, ...new Array(8 - groups.length).fill(0)]);

const IPV6_RANGES: Range[] = [
  { base: v6([0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254]), bits: 128, reason: "a cloud metadata address" },
  { base: prefix(), bits: 128, reason: "the unspecified address" },
  { base: v6([0, 0, 0, 0, 0, 0, 0, 1]), bits: 128, reason: "a loopback address" },
  { base: prefix(0x0100), bits: 64, reason: "a discard-only address" },
  { base: prefix(0x0064, 0xff9b, 0x0001), bits: 48, reason: "a local-use NAT64 address" },
  { base: prefix(0x2001), bits: 32, reason: "a Teredo address" },
  { base: prefix(0x2001, 0x0db8), bits: 32, reason: "a documentation address" },
  { base: prefix(0xfc00), bits: 7, reason: "a unique-local address" },
  { base: prefix(0xfe80), bits: 10, reason: "a link-local address" },
  { base: prefix(0xfec0), bits: 10, reason: "a site-local address" },
  { base: prefix(0xff00), bits: 8, reason: "a multicast address" },
];

/** IPv6 prefixes that carry an IPv4 address, and the byte where it starts. */
const EMBEDDED_IPV4: Array<{ base: number[]; bits: number; offset: number; form: string }> = [
  { base: v6([0, 0, 0, 0, 0, 0xffff, 0, 0]), bits: 96, offset: 12, form: "an IPv4-mapped" },
  { base: prefix(), bits: 96, offset: 12, form: "an IPv4-compatible" },
  { base: prefix(0x0064, 0xff9b), bits: 96, offset: 12, form: "a NAT64" },
  { base: prefix(0x2002), bits: 16, offset: 2, form: "a 6to4" },
];

/** Host names that lead inside whatever network the host runs in. */
const FORBIDDEN_NAMES = [/^localhost$/, /\.localhost$/, /^metadata$/, /^metadata\.goog$/, /\.internal$/, /\.local$/];

function inRange(bytes: number[], base: number[], bits: number): boolean {
  for (let index = 0; index < bits; index += 8) {
    const take = Math.min(8, bits - index);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[index / 8]! & mask) !== (base[index / 8]! & mask)) return false;
  }
  return true;
}

/** Parse an IPv6 address (zone id and embedded dotted IPv4 allowed) into 16 bytes. */
function parseIpv6(text: string): number[] | undefined {
  let address = text.replace(/%.*$/, "");
  // `::ffff:127.0.0.1` → `::ffff:7f00:1`: the dotted tail is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16) : NaN)));
  const front = parse(halves[0]!);
  const back = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - front.length - back.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...front, ...new Array<number>(missing).fill(0), ...back];
  if (groups.some((group) => Number.isNaN(group))) return undefined;
  return v6(groups);
}

function ipv4Reason(bytes: number[]): string | undefined {
  return IPV4_RANGES.find((range) => inRange(bytes, range.base, range.bits))?.reason;
}

/**
 * Why `address` (an IP literal) must not be reached from an untrusted URL, or undefined when it may.
 *
 * @example
 * forbiddenAddressReason("10.1.2.3");        // "a private address"
 * forbiddenAddressReason("::ffff:127.0.0.1"); // "an IPv4-mapped form of a loopback address"
 * forbiddenAddressReason("93.184.216.34");   // undefined
 */
export function forbiddenAddressReason(address: string): string | undefined {
  const unbracketed = address.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(unbracketed.replace(/%.*$/, ""));
  if (family === 4) return ipv4Reason(v4(unbracketed));
  if (family !== 6) return "not an IP address";
  const bytes = parseIpv6(unbracketed);
  if (!bytes) return "not an IP address";
  // Exact entries first (::, ::1, metadata), then the embedded IPv4 forms, then the wide ranges.
  const exact = IPV6_RANGES.find((range) => range.bits === 128 && inRange(bytes, range.base, 128));
  if (exact) return exact.reason;
  for (const embedded of EMBEDDED_IPV4) {
    if (!inRange(bytes, embedded.base, embedded.bits)) continue;
    const reason = ipv4Reason(bytes.slice(embedded.offset, embedded.offset + 4));
    return reason === undefined ? undefined : `${embedded.form} form of ${reason}`;
  }
  return IPV6_RANGES.find((range) => inRange(bytes, range.base, range.bits))?.reason;
}

/** Why a host name (not an IP literal) is refused outright, whatever it resolves to. */
export function forbiddenHostnameReason(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "metadata.google.internal") return "a cloud metadata host";
  return FORBIDDEN_NAMES.some((pattern) => pattern.test(name)) ? "a local or internal host name" : undefined;
}
