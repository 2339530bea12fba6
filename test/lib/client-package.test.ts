import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clientManifestObject, clientPackage } from "../../src/lib/client-package";

// The packed client a server serves (docs/client-install.md): found by npm's file name, its
// integrity is npm's sha512 SRI string of the exact bytes; no pack → no manifest object.
const dir = mkdtempSync(path.join(tmpdir(), "oabp-client-package-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("clientPackage", () => {
  it("reads npm's tarball name and computes its sha512 integrity", () => {
    const d = `${path.join(dir, "built")}/`;
    const bytes = Buffer.from("not really a tarball, but bytes all the same");
    mkdirSync(d);
    writeFileSync(`${d}README.md`, "an unrelated file next to it");
    writeFileSync(`${d}oabp-client-1.2.3-rc.1.tgz`, bytes);
    const p = clientPackage(d)!;
    expect(p).toMatchObject({ name: "@oabp/client", version: "1.2.3-rc.1", file: "oabp-client-1.2.3-rc.1.tgz" });
    expect(p.integrity).toBe(`sha512-${createHash("sha512").update(bytes).digest("base64")}`);
    expect(clientManifestObject(p)).toEqual({
      package: "@oabp/client",
      version: "1.2.3-rc.1",
      tarball: "/client.tgz",
      tarball_versioned: "/client/oabp-client-1.2.3-rc.1.tgz",
      integrity: p.integrity,
      bundled_dependencies: true,
    });
  });

  it("is null without a pack (then the manifest has no client object)", () => {
    expect(clientPackage(`${path.join(dir, "missing")}/`)).toBeNull();
    expect(clientManifestObject(null)).toBeUndefined();
  });
});
