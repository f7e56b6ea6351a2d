import { describe, expect, it } from "vitest";
import { addressNetwork, visitorKey } from "./client-address.server";

describe("visitorKey", () => {
  it("keeps an IPv4 address whole, also when IPv4-mapped", () => {
    expect(visitorKey("203.0.113.7")).toBe("203.0.113.7");
    expect(visitorKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every address of one IPv6 /64 as one visitor, and other /64s apart", () => {
    const keys = [
      "2001:db8:aa:1::1",
      "2001:db8:aa:1:ffff:ffff:ffff:ffff",
      "2001:0db8:00aa:0001:1234:5678:9abc:def0",
      "2001:DB8:AA:1::BEEF",
    ].map(visitorKey);
    expect(new Set(keys)).toEqual(new Set(["2001:db8:aa:1::/64"]));
    expect(visitorKey("2001:db8:aa:2::1")).toBe("2001:db8:aa:2::/64");
    expect(visitorKey("::1")).toBe("0:0:0:0::/64");
    expect(visitorKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("leaves anything else as it came", () => {
    expect(visitorKey("unknown")).toBe("unknown");
  });
});

describe("addressNetwork", () => {
  it("keeps an IPv4 address's /24 and an IPv6 address's /48, nothing finer", () => {
    expect(addressNetwork("203.0.113.7")).toBe("203.0.113.0/24");
    expect(addressNetwork("::ffff:203.0.113.7")).toBe("203.0.113.0/24");
    expect(addressNetwork("2001:db8:aa:1::beef")).toBe("2001:db8:aa::/48");
    expect(addressNetwork("::1")).toBe("0:0:0::/48");
    expect(addressNetwork("")).toBe("unknown");
  });
});
