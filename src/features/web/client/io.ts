// What the page script hands the signing chunk (wallet.ts): its REST call, status line and action
// runner. A type only, so the two bundles share no code and the page script needs no extra chunk.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from our own API, read field by field
export type ApiBody = any;

export interface Io {
  api(method: string, path: string, body?: unknown, idempotent?: boolean): Promise<{ status: number; body: ApiBody }>;
  say(text: string, ok?: boolean): void;
  run(button: HTMLElement | null, f: () => Promise<void>): Promise<void>;
}
