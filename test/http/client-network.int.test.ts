import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { clientNetwork } from "../../src/lib/client-network";
import { credit, missionBody, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// docs/abuse-edge.md "Client networks": per-IP limits key on the IPv6 /64, so 100
// addresses of one /64 are one client. Requests arrive through the trusted-proxy path
// (OABP_TRUST_PROXY=true, X-Forwarded-For), the way a deployment behind a proxy sees them.

describe("clientNetwork", () => {
  it("IPv4 as is, IPv6 by its prefix, IPv4-mapped as IPv4", () => {
    expect(clientNetwork("203.0.113.7", 64)).toBe("203.0.113.7");
    expect(clientNetwork("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64)).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:DB8:1:2::1", 64)).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("[2001:db8:1:2::1]", 64)).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:db8:1:3::1", 64)).toBe("2001:db8:1:3::/64");
    expect(clientNetwork("2001:db8:1:2:8000::1", 56)).toBe("2001:db8:1::/56");
    expect(clientNetwork("2001:db8::1", 128)).toBe("2001:db8:0:0:0:0:0:1");
    expect(clientNetwork("::ffff:198.51.100.9", 64)).toBe("198.51.100.9");
    expect(clientNetwork("fe80::1%eth0", 64)).toBe("fe80::/64");
    expect(clientNetwork("unknown", 64)).toBe("unknown");
  });

  it("an IPv4 address is keyed as ipaddr.js prints it, whatever form it came in", () => {
    const forms = ["0.0.0.0", "255.255.255.255", "10.0.0.1", "192.168.1.100", "1.2.3.4", "99.199.249.250"];
    for (const ip of forms) expect(clientNetwork(ip, 64)).toBe(ipaddr.parse(ip).toString());
    // Not dotted quads as printed: parsed and normalised, or kept as given when unparsable.
    expect(clientNetwork("010.1.1.1", 64)).toBe(ipaddr.parse("010.1.1.1").toString());
    expect(clientNetwork("0x7f.1", 64)).toBe(ipaddr.parse("0x7f.1").toString());
    expect(clientNetwork("256.1.1.1", 64)).toBe("256.1.1.1");
    expect(clientNetwork("1.2.3.4 ", 64)).toBe("1.2.3.4 ");
  });
});

describe("per-IP limits hold for 100 addresses of one /64", () => {
  // The production defaults (the test app's are lifted): 20 nonces, 120 anonymous writes, 20 streams.
  const t = useTestApp({
    OABP_TRUST_PROXY: "true",
    OABP_RATE_LIMIT_SESSION_IP: "20/60",
    OABP_RATE_LIMIT_WRITE_IP: "120/60",
    OABP_RATE_LIMIT_WRITE_AGENT: "60/60",
    OABP_RATE_LIMIT_WRITE_NET_AGENTS: "600/60",
  });
  const addr = (i: number) => `2001:db8:77:1:${(i + 1).toString(16)}:${(i * 7).toString(16)}::${i + 1}`;
  const from = (ip: string) => ({ "x-forwarded-for": ip });

  it("nonces: 20 of 100; another /64 has its own bucket", async () => {
    const codes = [];
    for (let i = 0; i < 100; i++) codes.push((await t.call("POST", "/auth/nonce", { headers: from(addr(i)) })).status);
    expect(codes.filter((s) => s === 200)).toHaveLength(20);
    expect(codes.filter((s) => s === 429)).toHaveLength(80);
    expect((await t.call("POST", "/auth/nonce", { headers: from("2001:db8:77:2::1") })).status).toBe(200);
  });

  it("anonymous writes: 120 of 300 pass the limit", async () => {
    let limited = 0;
    for (let i = 0; i < 300; i++) {
      const r = await t.call("POST", "/auth/siwe", {
        headers: from(addr(i % 100)),
        body: { message: "x", signature: "0x" },
      });
      if (r.status === 429) limited++;
    }
    expect(limited).toBe(180);
  });

  it("event streams: 20 of 40 open; another /64 is still served", async () => {
    const open: Response[] = [];
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await t.app.request("/events", { headers: from(addr(i)) });
      codes.push(res.status);
      if (res.status === 200) open.push(res);
      else await res.text();
    }
    expect(codes.filter((s) => s === 200)).toHaveLength(20);
    expect(codes.filter((s) => s === 429)).toHaveLength(20);
    const other = await t.app.request("/events", { headers: from("2001:db8:77:3::1") });
    expect(other.status).toBe(200);
    for (const res of [...open, other]) await res.body?.cancel();
  });

  it("a signed-in agent behind a shared address is limited per agent first: an anonymous neighbour cannot starve it", async () => {
    const shared = "198.51.100.200";
    // The neighbour spends the address's anonymous write bucket.
    for (let i = 0; i < 121; i++)
      await t.call("POST", "/auth/siwe", { headers: from(shared), body: { message: "x", signature: "0x" } });
    const refused = await t.call("POST", "/auth/siwe", {
      headers: from(shared),
      body: { message: "x", signature: "0x" },
    });
    expect(refused.status).toBe(429);
    const a = await signIn(t);
    await credit(t, a.address, 1_000_000_000n);
    const post = await t.call("POST", "/missions", { token: a.token, headers: from(shared), body: missionBody(t) });
    expect(post.status, post.text).toBe(201);
    expect(post.headers.get("ratelimit-policy")).toBe('"write-agent";q=60;w=60, "write-net-agents";q=600;w=60');
  });
});
