import { encodeAbiParameters, keccak256, parseAbiParameters, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { newAccount } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { useTestApp } from "../helpers/suite-app";

// AIP-1 §1.4 bindings under concurrency: the checks (another registry's live key; an older
// attestation) must hold when the competing requests arrive at the same moment.
describe.runIf(onRealPostgres)("registry bindings under concurrency (real Postgres)", () => {
  const A = newAccount();
  const B = newAccount();
  const t = useTestApp(
    {
      OABP_REGISTRIES: JSON.stringify([
        { domain: "a.example", signer: A.address },
        { domain: "b.example", signer: B.address },
      ]),
    },
    { poolMax: 10 },
  );

  async function attest(signer: PrivateKeyAccount, domain: string, apiKey: string, evm: string, issuedAt: string) {
    const hash = keccak256(
      encodeAbiParameters(parseAbiParameters("string, address, string"), [apiKey, evm as Hex, issuedAt]),
    );
    return {
      api_key: apiKey,
      evm_address: evm,
      issued_at: issuedAt,
      registry_domain: domain,
      signature: await signer.sign({ hash }),
    };
  }
  const post = (body: unknown) => t.call("POST", "/attestations/registry", { body });
  const boundTo = async (apiKey: string) => {
    const { resolveIdentity } = await import("../../src/features/auth/auth.service");
    const id = await resolveIdentity(t.deps, { apiKey });
    return id.kind === "agent" ? id.address : null;
  };

  it("two registries racing for one fresh api_key: exactly one wins, the key stays with it", async () => {
    for (let trial = 0; trial < 10; trial++) {
      const key = `race-${trial}-${crypto.randomUUID()}`;
      const at = t.clock.now().toISOString();
      const [ea, eb] = [newAccount().address, newAccount().address];
      const [ra, rb] = await Promise.all([
        post(await attest(A, "a.example", key, ea, at)),
        post(await attest(B, "b.example", key, eb, at)),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      const winner = ra.status === 200 ? ea : eb;
      expect(await boundTo(key)).toBe(winner.toLowerCase());
    }
  });

  it("an older and a newer attestation racing: the newer binding always stands", async () => {
    for (let trial = 0; trial < 10; trial++) {
      const key = `order-${trial}-${crypto.randomUUID()}`;
      const older = new Date(t.clock.now().getTime() - 60_000).toISOString();
      const newer = t.clock.now().toISOString();
      const [oldAddr, newAddr] = [newAccount().address, newAccount().address];
      await Promise.all([
        post(await attest(A, "a.example", key, oldAddr, older)),
        post(await attest(A, "a.example", key, newAddr, newer)),
      ]);
      expect(await boundTo(key)).toBe(newAddr.toLowerCase());
    }
  });
});
