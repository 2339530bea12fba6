import { describe, expect, it } from "vitest";
import { credit, missionBody, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// A mission's `language` (docs/decisions.md "Mission language"): the BCP 47 tag of the language the
// work is asked in, set at creation, on every mission read; malformed tags are refused.

const t = useTestApp();

async function create(over: Record<string, unknown>) {
  const creator = await signIn(t);
  await credit(t, creator.address, 1_000_000_000n);
  return t.call("POST", "/missions", { token: creator.token, body: missionBody(t, over) });
}

describe("mission language", () => {
  it("is stored at creation and served on the mission and in lists", async () => {
    const r = await create({ language: "pt-BR" });
    expect(r.status, r.text).toBe(201);
    expect(r.body.language).toBe("pt-BR");
    const got = await t.call("GET", `/missions/${r.body.id}`);
    expect(got.body.language).toBe("pt-BR");
    const list = await t.call("GET", "/missions?limit=100");
    expect(list.body.missions.find((m: { id: string }) => m.id === r.body.id)?.language).toBe("pt-BR");
  });

  it("is null when not stated", async () => {
    const r = await create({});
    expect(r.status, r.text).toBe(201);
    expect(r.body.language).toBeNull();
  });

  it("refuses what is not a language tag", async () => {
    for (const language of ["", "english language", "x", "en_US", "a".repeat(40), 7]) {
      expectError(await create({ language }), 400, "INVALID_PARAMETER");
    }
  });
});
