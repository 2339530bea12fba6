import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missions } from "../../src/db/schema/index";
import { sessionCookieName } from "../../src/http/session-cookie";
import { ADMIN_TOKEN, makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { acceptedSubmission } from "../helpers/mission-flow";

// Caching by who may see it (docs/decisions.md "Caching by who may see it", RFC 9111 §3, §4.1):
// every GET route of openapi/openapi.json and every web page, asked anonymously, with a bearer and
// with the session cookie of a creator who has a pending deliverable, an operator-hidden mission
// and a pending_escrow mission. A shared cache may store an answer unless it says `private` or
// `no-store`; it serves a stored answer to a request whose headers named in `Vary` match. So:
//  - a credentialed answer a shared cache may store must be the anonymous answer itself;
//  - an anonymous answer a shared cache may store, where the credentialed answer differs, must
//    vary on the header that carried the credential (Authorization, Cookie).

const doc = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, unknown>>;
};
const GET_PATHS = Object.entries(doc.paths)
  .filter(([, ops]) => "get" in ops)
  .map(([p]) => p);

const shareable = (cc: string | null) => !/\b(private|no-store)\b/i.test(cc ?? "");
const varies = (vary: string | null, header: string) =>
  (vary ?? "").split(",").some((v) => ["*", header.toLowerCase()].includes(v.trim().toLowerCase()));
/** What differs between two renderings for one caller: request ids, CSP nonces, ETags of those. */
const normalised = (text: string) =>
  text
    .replace(/req_[A-Za-z0-9]+/g, "req_")
    .replace(/nonce(-|=")[A-Za-z0-9+/=]+/g, "nonce")
    .replace(/content="[A-Za-z0-9_-]{40,}"/g, 'content=""');

let t: TestApp;
let creator: Awaited<ReturnType<typeof signIn>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await makeTestApp();
  // A creator_judges mission with a deliverable the creator has not judged yet.
  const judged = await openMission(t, { title: "Pending deliverable" });
  creator = judged.creator;
  const solver = await signIn(t);
  const sub = await acceptedSubmission(t, judged.mission.id, solver, "the creator's private deliverable");
  ids.judged = judged.mission.id;
  ids.sid = sub.body.id;
  // An operator-hidden mission and a pending_escrow one, both the same creator's.
  const post = async (title: string) => {
    const r = await t.call("POST", "/missions", {
      token: creator.token,
      body: {
        title,
        description: "d",
        reward: { asset: "USDC", amount: "1000000" },
        verification: { type: "creator_judges", params: {} },
        deadline: new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString(),
      },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.id as string;
  };
  ids.hidden = await post("Operator-hidden mission");
  const hide = await t.call("POST", `/admin/missions/${ids.hidden}/hide`, {
    token: ADMIN_TOKEN,
    body: { reason: "under review" },
  });
  expect(hide.status, hide.text).toBe(200);
  ids.pending = await post("Waiting for its escrow");
  await t.deps.database.db
    .update(missions)
    .set({ status: "pending_escrow", phase: "awaiting_escrow" })
    .where(eq(missions.id, ids.pending));
});
afterAll(async () => t?.close());

/** Concrete URLs of a templated path, one per fixture its parameters can take. */
function urls(path: string): string[] {
  const fill = (mission: string) =>
    path
      .replace(/^\/missions\/\{id\}/, `/missions/${mission}`)
      .replace("{sid}", ids.sid!)
      .replace("{submission_id}", ids.sid!)
      .replace(/^\/submissions\/\{id\}/, `/submissions/${ids.sid}`)
      .replace(/\{(id|address)\}/, creator.address)
      .replace(/\{[a-z_]+\}/g, "x");
  return path.startsWith("/missions/{id}") ? [ids.judged!, ids.hidden!, ids.pending!].map(fill) : [fill("")];
}

const PAGES = () =>
  ["/", "/ranking", "/status", "/me", "/post", `/u/${creator.address}`].concat(
    [ids.judged!, ids.hidden!, ids.pending!].map((m) => `/m/${m}`),
    [`/m/${ids.judged}/receipts/${ids.sid}`],
  );

/** A GET's status, headers and text; an event stream (GET /events, GET /mcp) is read for its headers only. */
async function get(url: string, headers: Record<string, string>) {
  const res = await t.app.request(url, { headers });
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    await res.body?.cancel();
    return { status: res.status, headers: res.headers, text: "" };
  }
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function check(url: string, accept: string) {
  const headers = { accept };
  const anon = await get(url, headers);
  const callers = {
    Authorization: await get(url, { ...headers, authorization: `Bearer ${creator.token}` }),
    Cookie: await get(url, { ...headers, cookie: `${sessionCookieName(false)}=${creator.token}` }),
  };
  const sameAsAnon = (r: typeof anon) => r.status === anon.status && normalised(r.text) === normalised(anon.text);
  let differs = false;
  for (const [header, r] of Object.entries(callers)) {
    const cc = r.headers.get("cache-control");
    // A shared cache may keep a credentialed answer only when it is the anonymous one.
    if (shareable(cc)) expect(sameAsAnon(r), `${url} via ${header}: ${cc} on the caller's own view`).toBe(true);
    if (!sameAsAnon(r)) {
      differs = true;
      // A stored anonymous answer must not be served to this caller.
      if (shareable(anon.headers.get("cache-control")))
        expect(varies(anon.headers.get("vary"), header), `${url}: anonymous answer does not vary on ${header}`).toBe(
          true,
        );
    }
  }
  return differs;
}

describe("caching by who may see it", () => {
  it("every GET route: a shared cache never serves one caller's view to another", async () => {
    let walked = 0;
    let differing = 0;
    for (const path of GET_PATHS) {
      for (const url of urls(path)) {
        walked++;
        if (await check(url, "application/json")) differing++;
      }
    }
    expect(walked).toBeGreaterThanOrEqual(GET_PATHS.length);
    // The walk meets caller-dependent answers (else it would prove nothing).
    expect(differing).toBeGreaterThan(10);
  }, 180_000);

  it("every web page, under the same rule", async () => {
    for (const url of PAGES()) await check(url, "text/html");
  });

  it("a creator's pending deliverable, hidden mission and pending_escrow mission are private by cookie and by bearer, and differ from the anonymous answer", async () => {
    const cookie = `${sessionCookieName(false)}=${creator.token}`;
    for (const url of [
      `/missions/${ids.judged}/submissions/${ids.sid}/content`,
      `/missions/${ids.hidden}`,
      `/missions/${ids.pending}`,
      `/api/missions/${ids.pending}`,
    ]) {
      const anon = await t.call("GET", url);
      const ways: Record<string, string>[] = [{ cookie }, { authorization: `Bearer ${creator.token}` }];
      for (const headers of ways) {
        const own = await t.call("GET", url, { headers });
        expect(own.status, `${url} ${own.text}`).toBe(200);
        expect(own.text).not.toBe(anon.text);
        expect(own.headers.get("cache-control"), url).toMatch(/^private\b/);
      }
      expect(anon.headers.get("vary"), url).toMatch(/Authorization, Cookie/);
    }
  });

  it("a handler's own `public` stays public for anonymous readers and turns private for a credentialed one", async () => {
    const anon = await t.call("GET", "/feed.xml");
    expect(anon.headers.get("cache-control")).toBe("public, max-age=60");
    const own = await t.call("GET", "/feed.xml", { token: creator.token });
    expect(own.headers.get("cache-control")).toBe("private, max-age=60");
    const keyed = await t.call("GET", "/missions?api_key=not-bound");
    expect(keyed.headers.get("cache-control")).toMatch(/^private\b/);
  });
});
