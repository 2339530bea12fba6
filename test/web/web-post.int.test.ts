import { describe, expect, it } from "vitest";
import { credit, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// The post form's server side (docs/web.md "Posting"): the fields as a person typed them — the
// reward in whole units — become the POST /missions request; what to fix comes back per field in
// words, with the numbers the person needs, and nothing is charged for a refused form.

const t = useTestApp();

const inAWeek = () => new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString();
const form = (over: Record<string, string> = {}) => ({
  title: "Proofread the README",
  description: "Fix the typos.",
  amount: "25",
  asset: "USDC",
  chain: "ledger",
  deadline: inAWeek(),
  verification: "creator_judges",
  expected: "",
  judging_window: "",
  appeal: "final",
  tags: "docs, Writing",
  ...over,
});
const balanceOf = async (address: string) =>
  (await t.call("GET", `/agents/${address}/balance`)).body.balances.find((b: any) => b.asset === "USDC")?.available;

describe("POST /web/post", () => {
  it("25 means a 25 USDC mission: the reward in whole units, the fee charged beside it", async () => {
    const a = await signIn(t);
    await credit(t, a.address, 100_000_000n);
    const r = await t.call("POST", "/web/post", { token: a.token, body: form() });
    expect(r.status).toBe(201);
    expect(r.body.reward).toMatchObject({ asset: "USDC", amount: "25000000", chain: "ledger" });
    expect(r.body.tags).toEqual(["docs", "writing"]);
    expect(r.body.verification.params.appeal).toBe(false);
    // 100 − 25 reward − 5 posting fee.
    expect(await balanceOf(a.address)).toBe("70000000");
    const half = await t.call("POST", "/web/post", {
      token: a.token,
      body: form({ amount: "1.5", judging_window: "259200" }),
    });
    expect(half.status).toBe(201);
    expect(half.body.reward.amount).toBe("1500000");
    expect(half.body.verification.params.judging_window_seconds).toBe(259_200);
  });

  it("what to fix, per field, in words: no base units, no field paths", async () => {
    const a = await signIn(t);
    await credit(t, a.address, 100_000_000n);
    const r = await t.call("POST", "/web/post", {
      token: a.token,
      body: form({
        title: " ",
        amount: "twenty",
        deadline: new Date(t.clock.now().getTime() - 60_000).toISOString(),
        tags: "ok, not a tag!",
        verification: "first_valid_match",
      }),
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("INVALID_PARAMETER");
    const fields = r.body.details.fields;
    expect(Object.keys(fields).sort()).toEqual(["amount", "deadline", "expected", "tags", "title"]);
    expect(fields.amount).toBe("Enter an amount in USDC like 50 or 12.5.");
    expect(fields.deadline).toBe(
      "The deadline must be later than now (Mon 1 Jun 2026, 00:00 UTC); pick a later day or time.",
    );
    expect(fields.tags).toContain("“not a tag!” cannot be a tag");
    expect(fields.expected).toMatch(/^Write the answer you expect/);
    for (const text of Object.values(fields) as string[]) {
      expect(text).not.toMatch(/\d{7,}|[a-z]+_[a-z]+|\d{4}-\d\d-\d\dT/);
      expect(text).not.toMatch(/reward\.amount|integer/);
    }
    expect(
      (await t.call("POST", "/web/post", { token: a.token, body: form({ amount: "0" }) })).body.details.fields,
    ).toEqual({
      amount: "The reward must be more than 0 USDC.",
    });
    expect(
      (await t.call("POST", "/web/post", { token: a.token, body: form({ amount: "1.0000001" }) })).body.details.fields
        .amount,
    ).toBe("USDC has at most 6 digits after the point.");
    // Nothing was charged for the refused forms.
    expect(await balanceOf(a.address)).toBe("100000000");
  });

  it("too low a balance says what there is and what the mission needs, reward and fee apart; nothing is taken", async () => {
    const a = await signIn(t);
    await credit(t, a.address, 12_500_000n);
    const r = await t.call("POST", "/web/post", { token: a.token, body: form({ amount: "100" }) });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe("INSUFFICIENT_BALANCE");
    expect(r.body.details.fields).toEqual({
      amount:
        "Your balance is 12.5 USDC; this mission needs 105 USDC (100 USDC reward + 5 USDC posting fee). Add 92.5 USDC to your balance or lower the reward.",
    });
    expect(await balanceOf(a.address)).toBe("12500000");
  });

  it("signed in only; a retry under the same Idempotency-Key posts once; a malformed body is a 400", async () => {
    const anon = await t.call("POST", "/web/post", { body: form() });
    expect(anon.status).toBe(401);
    const a = await signIn(t);
    await credit(t, a.address, 100_000_000n);
    const body = form({ title: "Once only" });
    const headers = { "idempotency-key": "form-retry-1" };
    const first = await t.call("POST", "/web/post", { token: a.token, body, headers });
    const again = await t.call("POST", "/web/post", { token: a.token, body, headers });
    expect(first.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await balanceOf(a.address)).toBe("70000000");
    const bad = await t.call("POST", "/web/post", { token: a.token, body: { title: 5 } });
    expect(bad.status).toBe(400);
    expect((await t.call("POST", "/web/post", { token: a.token, body: "[" })).status).toBe(400);
    const typo = await t.call("POST", "/web/post", { token: a.token, body: { ...form(), titel: "x" } });
    expect(typo.status).toBe(400);
    expect(typo.text).toContain("titel");
  });
});
