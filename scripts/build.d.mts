// Types of scripts/build.mjs for the TypeScript that imports it (tests, bench).
export const ROOT: string;
export const DIST: string;
export const ENTRIES: Record<string, string>;
export const RUNTIME_FILES: string[];
export const EXTERNAL: string[];
export function staleReason(root?: string): string | null;
export function build(root?: string, opts?: { ifStale?: boolean; log?: (m: string) => void }): Promise<boolean>;
