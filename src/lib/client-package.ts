import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// The packed @oabp/client this server hands out (docs/client-install.md): `npm pack` of
// packages/client, built by the repository's `prepare` script (`npm install` / `npm ci`) or
// `npm run build:client` into packages/client/pack/. The server serves it at CLIENT_TARBALL_PATH
// and at its versioned name, with its sha512 integrity in the manifest, so
// `npm install <server>/client.tgz` and `npx -y <server>/client.tgz mcp` need nothing but this
// server (the package bundles its dependencies). Read once per process: a rebuild needs a restart.

export const CLIENT_TARBALL_PATH = "/client.tgz";
const CLIENT_PACKAGE_NAME = "@oabp/client";
const PACK_DIR = fileURLToPath(new URL("../../packages/client/pack/", import.meta.url));

export interface ClientPackage {
  name: string;
  version: string;
  /** npm's file name, also served under /client/<file>. */
  file: string;
  bytes: Buffer;
  /** Subresource-integrity string, as npm writes it in package-lock.json. */
  integrity: string;
}

let loaded: { value: ClientPackage | null } | undefined;

/** The packed client, or null when this checkout has not built it (`npm run build:client`). */
export function clientPackage(dir = PACK_DIR): ClientPackage | null {
  if (loaded && dir === PACK_DIR) return loaded.value;
  let value: ClientPackage | null = null;
  try {
    const file = readdirSync(dir).find((f) => /^oabp-client-\d[\w.+-]*\.tgz$/.test(f));
    if (file) {
      const bytes = readFileSync(`${dir}${file}`);
      value = {
        name: CLIENT_PACKAGE_NAME,
        version: file.slice("oabp-client-".length, -".tgz".length),
        file,
        bytes,
        integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
      };
    }
  } catch {
    value = null; // no pack directory: not built
  }
  if (dir === PACK_DIR) loaded = { value };
  return value;
}

/** The versioned path of the tarball, e.g. /client/oabp-client-0.1.0.tgz. */
export const versionedTarballPath = (p: ClientPackage) => `/client/${p.file}`;

/** The manifest's `client` object (relative paths, as every manifest endpoint). */
export function clientManifestObject(p: ClientPackage | null) {
  if (!p) return undefined;
  return {
    package: p.name,
    version: p.version,
    tarball: CLIENT_TARBALL_PATH,
    tarball_versioned: versionedTarballPath(p),
    integrity: p.integrity,
    bundled_dependencies: true,
  };
}
