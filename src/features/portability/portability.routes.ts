import { createRoute } from "@hono/zod-openapi";
import { routes } from "../../http/route";
import { jsonResponse } from "../../http/openapi";
import { AddressParam, AttestationDoc, ImportAccepted, ImportRefused, TrustedIssuers } from "./portability.schemas";

const route = routes("reputation");

export const attestationRoute = route
  .one("/reputation/{address}/attestation", AddressParam)
  .get("Signed AIP-3 reputation attestation of an agent of this server (AIP-3 §2.2)", {
    ok: [200, AttestationDoc, "EIP-191 signed by the key published as issuer_address"],
  });

export const importRoute = route.post(
  "/reputation/import",
  "Import a foreign AIP-3 attestation (AIP-3 §4.1): verified against the issuer's manifest, discounted, shown apart from the local rating",
  {
    in: { body: AttestationDoc },
    ok: [200, ImportAccepted, "Imported"],
    responses: { 400: jsonResponse(ImportRefused, "Refused, with the reason") },
  },
);

export const trustedIssuersRoute = createRoute({
  ...route.get("/reputation/trusted-issuers", "Issuers whose attestations this server imports (AIP-3 §6)"),
  responses: { 200: jsonResponse(TrustedIssuers, "The trust list") },
});
