import type { OabpClient } from "./client.js";
import { OabpError } from "./errors.js";
import { signReleases, type ReleaseToSign, type ReleaseTypedDataAnswer } from "./release-sign.js";
import type { Award, Mission } from "./types.js";

// `oabp award` and the library's award as the creator (release-sign.ts): the server's typed data,
// the creator's key signs each release, the award carries them as `release_signatures`.

/**
 * Awards a mission as its creator: fetches the releases to sign, signs them with the client's
 * account and posts the award with `release_signatures`. A server without the typed-data route
 * gets the plain award.
 */
export async function awardMission(client: OabpClient, id: string, body: Award): Promise<Mission> {
  const path = `/missions/${encodeURIComponent(id)}/award/typed-data`;
  let releases: ReleaseToSign[] = [];
  try {
    releases = ((await client.raw("POST", path, body)) as ReleaseTypedDataAnswer).releases ?? [];
  } catch (e) {
    // "no route" (a server before contract v3) carries entry_points; a missing mission does not.
    if (!(e instanceof OabpError && e.status === 404 && e.details?.entry_points !== undefined)) throw e;
  }
  if (releases.length === 0) return client.award(id, body);
  // Loaded only now: a keystore is decrypted only when there is a release to sign.
  const account = await client.account();
  if (!account?.signTypedData)
    throw new OabpError(0, "NO_ACCOUNT", "this award releases escrow the creator funded: it needs the creator's key");
  const release_signatures = await signReleases(releases, account.address, (td) => account.signTypedData!(td));
  return client.award(id, { ...body, release_signatures });
}
