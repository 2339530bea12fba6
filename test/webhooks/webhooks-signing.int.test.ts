import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { nextAttemptAt, nominalDelayMs, RETRY_CAP_MS } from "../../src/features/webhooks/webhooks.retry";
import { checkWebhookUrl } from "../../src/features/webhooks/webhooks.url";
import { createSafeFetcher } from "../../src/lib/safe-fetch";
import { newWebhookSecret, signWebhook, webhookHeaders } from "../../src/lib/webhook-signature";
import { buildApi, openApiDocument } from "../../src/openapi";
import { TEST_CONTENT_HOST } from "../helpers/app";
import { startReceiver, verifyStandard, type Receiver } from "../helpers/receiver";

// Webhooks, the parts that need no database: the retry schedule, Standard Webhooks signatures
// checked against the official library, the URL policy, the fetcher's manual-redirect mode, and
// the routes in /openapi.json.

const DAY = 86_400_000;

describe("retry schedule (exponential backoff with jitter, about three days)", () => {
  it("doubles from 10 s up to a 12 h cap", () => {
    expect([1, 2, 3, 4, 5].map(nominalDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000, 160_000]);
    expect(nominalDelayMs(13)).toBe(10_000 * 2 ** 12); // 11.4 h, still under the cap
    expect(nominalDelayMs(14)).toBe(RETRY_CAP_MS);
    expect(nominalDelayMs(40)).toBe(RETRY_CAP_MS);
  });

  it("without jitter: attempts spread over exactly the window, the last one at its end, then failed", () => {
    const createdAt = new Date("2026-06-01T00:00:00Z");
    const windowMs = 3 * DAY;
    const times = [createdAt.getTime()]; // the first attempt is made at fan-out
    for (;;) {
      const next = nextAttemptAt({
        failedAttempts: times.length,
        createdAt,
        now: new Date(times.at(-1)!),
        windowMs,
        random: () => 0.5,
      });
      if (!next) break;
      times.push(next.getTime());
    }
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps.slice(0, 5)).toEqual([10_000, 20_000, 40_000, 80_000, 160_000]);
    expect(times.at(-1)! - createdAt.getTime()).toBe(windowMs); // "about three days", exactly
    expect(times.length).toBe(19);
    for (let i = 1; i < gaps.length - 1; i++) expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1]!);
    expect(Math.max(...gaps)).toBe(RETRY_CAP_MS);
  });

  it("jitter keeps each delay within ±20 % of nominal, and never past the window", () => {
    const createdAt = new Date("2026-06-01T00:00:00Z");
    const at = (failedAttempts: number, random: number) =>
      nextAttemptAt({ failedAttempts, createdAt, now: createdAt, windowMs: 3 * DAY, random: () => random })!.getTime() -
      createdAt.getTime();
    expect(at(3, 0)).toBe(32_000);
    expect(at(3, 0.999999)).toBeCloseTo(48_000, -1);
    for (let i = 0; i < 200; i++) {
      const d =
        nextAttemptAt({ failedAttempts: 4, createdAt, now: createdAt, windowMs: 3 * DAY })!.getTime() -
        createdAt.getTime();
      expect(d).toBeGreaterThanOrEqual(64_000);
      expect(d).toBeLessThanOrEqual(96_000);
    }
    const late = new Date(createdAt.getTime() + 3 * DAY - 1000);
    expect(
      nextAttemptAt({ failedAttempts: 17, createdAt, now: late, windowMs: 3 * DAY, random: () => 0.5 })!.getTime(),
    ).toBe(createdAt.getTime() + 3 * DAY);
    expect(
      nextAttemptAt({ failedAttempts: 18, createdAt, now: new Date(createdAt.getTime() + 3 * DAY), windowMs: 3 * DAY }),
    ).toBeNull();
  });
});

describe("Standard Webhooks signatures", () => {
  it("match the spec's published example", () => {
    // https://www.standardwebhooks.com/ (signature example): this secret, id, timestamp and body.
    expect(
      signWebhook(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("verify with the official standardwebhooks library; any change to id, timestamp, body or secret fails", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const at = new Date("2026-06-01T12:00:00Z");
    const body = JSON.stringify({
      id: "evt_1",
      type: "mission.created",
      timestamp: at.toISOString(),
      data: { mission_id: "mis_1" },
    });
    const headers = webhookHeaders(secret, "evt_01JZ0000000000000000000000", at, body);
    expect(headers["webhook-timestamp"]).toBe(String(at.getTime() / 1000));
    const r = { path: "/", headers, body };
    expect(verifyStandard(secret, r, at)).toMatchObject({ type: "mission.created" });
    expect(new Webhook(secret).sign("evt_01JZ0000000000000000000000", at, body)).toBe(headers["webhook-signature"]);
    expect(() => verifyStandard(secret, { ...r, body: body.replace("mis_1", "mis_2") }, at)).toThrow();
    expect(() => verifyStandard(secret, { ...r, headers: { ...headers, "webhook-id": "evt_other" } }, at)).toThrow();
    expect(() =>
      verifyStandard(
        secret,
        { ...r, headers: { ...headers, "webhook-timestamp": String(at.getTime() / 1000 + 1) } },
        at,
      ),
    ).toThrow();
    expect(() => verifyStandard(newWebhookSecret(), r, at)).toThrow();
  });
});

describe("webhook URL policy", () => {
  const production = createSafeFetcher();
  const tests = createSafeFetcher({ allowAddress: (ip) => ip === TEST_CONTENT_HOST });
  const reason = (url: string, f = production) => {
    const v = checkWebhookUrl(url, f);
    return v.ok ? "ok" : v.reason;
  };

  it("accepts public https URLs", () => {
    expect(checkWebhookUrl("https://agent.example/hooks?x=1", production)).toEqual({
      ok: true,
      url: "https://agent.example/hooks?x=1",
    });
    expect(reason("https://93.184.215.14:8443/h")).toBe("ok");
  });

  it("refuses private and loopback literals, localhost, credentials, other schemes, plain http", () => {
    for (const u of [
      "https://10.0.0.1/h",
      "https://127.0.0.1/h",
      "https://169.254.169.254/latest",
      "https://[::1]/h",
      "https://[::ffff:127.0.0.1]/h",
      "https://2130706433/h",
      "https://0x7f.1/h",
    ]) {
      expect(reason(u), u).toBe("blocked_address");
    }
    expect(reason("https://localhost/h")).toBe("blocked_address");
    expect(reason("https://api.localhost./h")).toBe("blocked_address");
    expect(reason("https://user:pw@agent.example/h")).toBe("credentials_in_url");
    expect(reason("http://agent.example/h")).toBe("https_required");
    expect(reason("ftp://agent.example/h")).toBe("https_required");
    expect(reason("not a url")).toBe("invalid_url");
    expect(reason(`https://agent.example/${"a".repeat(2048)}`)).toBe("url_too_long");
  });

  it("allows plain http only to the test receiver address, and only where the fetcher allows it", () => {
    expect(reason(`http://${TEST_CONTENT_HOST}:1234/h`, tests)).toBe("ok");
    expect(reason(`http://${TEST_CONTENT_HOST}:1234/h`)).toBe("blocked_address");
    expect(reason("http://127.0.0.1:1234/h", tests)).toBe("blocked_address");
    expect(reason("http://93.184.215.14/h", tests)).toBe("https_required");
  });
});

describe("safe fetcher: redirect: manual", () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver({ "/moved": () => ({ status: 302, headers: { location: "/target" } }) });
  });
  afterAll(async () => rx?.close());

  it("returns a 3xx as the answer and never requests its Location; the default still follows", async () => {
    const fetcher = createSafeFetcher({ allowAddress: (ip) => ip === TEST_CONTENT_HOST, timeoutMs: 2000 });
    const r = await fetcher.fetch(`${rx.base}/moved`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
      redirect: "manual",
    });
    expect(r).toMatchObject({ ok: true, status: 302, headers: { location: "/target" } });
    expect(rx.at("/target")).toHaveLength(0);
    const followed = await fetcher.fetch(`${rx.base}/moved`);
    expect(followed).toMatchObject({ ok: true, status: 204 });
    expect(rx.at("/target")).toHaveLength(1);
  });
});

describe("/openapi.json", () => {
  it("documents every webhook route with its error responses", () => {
    const doc = openApiDocument(buildApi()) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths["/webhooks"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/webhooks/{id}"]!).sort()).toEqual(["delete", "get"]);
    expect(Object.keys(doc.paths["/webhooks/{id}/deliveries"]!)).toEqual(["get"]);
    expect(doc.paths["/webhooks"]!.post!.responses["422"]).toBeDefined();
    expect(doc.paths["/webhooks/{id}"]!.get!.responses["404"]).toBeDefined();
  });
});
