import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { TokenStore } from "../client.js";
import type { Session } from "../types.js";

// The CLI's settings and cached sessions, in the per-user config directory:
// $OABP_CONFIG_DIR, else $XDG_CONFIG_HOME/oabp, else the platform's (~/.config/oabp on Linux,
// ~/Library/Application Support/oabp on macOS, %APPDATA%\oabp on Windows). The file is 0600:
// it holds bearer tokens. Private keys are never written; a key *file* or keystore is remembered by path.

export interface Profile {
  server?: string;
  key?: { type: "key_file" | "keystore"; path: string };
  /** One cached session per server origin. */
  sessions?: Record<string, Session>;
}
export interface ConfigFile {
  profiles: Record<string, Profile>;
}

function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OABP_CONFIG_DIR) return env.OABP_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, "oabp");
  if (process.platform === "win32" && env.APPDATA) return path.join(env.APPDATA, "oabp");
  if (process.platform === "darwin") return path.join(homedir(), "Library", "Application Support", "oabp");
  return path.join(homedir(), ".config", "oabp");
}

export class Config {
  readonly file: string;
  data: ConfigFile;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.file = path.join(configDir(env), "config.json");
    try {
      const parsed = JSON.parse(readFileSync(this.file, "utf8"));
      this.data = parsed && typeof parsed.profiles === "object" ? parsed : { profiles: {} };
    } catch {
      this.data = { profiles: {} };
    }
  }

  profile(name: string): Profile {
    return (this.data.profiles[name] ??= {});
  }

  save(): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }

  /** The client's token cache for one profile and server. */
  tokenStore(profile: string, server: string): TokenStore {
    const origin = new URL(server).origin;
    return {
      load: () => this.profile(profile).sessions?.[origin],
      save: (s) => {
        const p = this.profile(profile);
        (p.sessions ??= {})[origin] = s;
        this.save();
      },
    };
  }
}
