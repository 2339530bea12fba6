import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { cardSigningBytes } from "../../src/features/adp/adp.card";
import { didKeyFromEd25519 } from "../../src/features/adp/adp.didkey";

/** A fresh Ed25519 key and its did:key. */
export function ed25519Identity() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const raw = Buffer.from(publicKey.export({ format: "jwk" }).x!, "base64url");
  return { privateKey, did: didKeyFromEd25519(raw), raw };
}

/** ADP §3.2: JCS of the card without signature, Ed25519, base64url. */
export const signCard = <T extends Record<string, unknown>>(card: T, key: KeyObject): T & { signature: string } => ({
  ...card,
  signature: sign(null, cardSigningBytes(card), key).toString("base64url"),
});
