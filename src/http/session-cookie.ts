import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { constantTimeEqual, sha256Hex } from "../lib/hash";

// Browser sessions: the web board signs in with SIWE like an agent does, but keeps the
// session token in an HttpOnly cookie instead of handing it to page script. Agents keep bearer
// tokens; a request that carries Authorization or an api_key never looks at the cookie.

/** `__Host-` pins the cookie to this origin, Path=/ and Secure (RFC 6265bis §4.1.3.2); https only. */
export const sessionCookieName = (secure: boolean) => (secure ? "__Host-oabp_session" : "oabp_session");
const CSRF_HEADER = "x-csrf-token";

const isSecure = (publicUrl: string) => publicUrl.startsWith("https://");

/**
 * The CSRF token of a session: derived from the session token, so nothing more is stored and a
 * page can only learn it from a server-rendered response (never from a cross-site read).
 */
export const csrfTokenFor = (sessionToken: string) => sha256Hex(`oabp-csrf:${sessionToken}`).slice(0, 43);

/**
 * The CSRF token as one response carries it: masked with a fresh random pad, `base64url(pad ‖
 * pad ⊕ token)`, as the BREACH mitigations do (docs/decisions.md "CSRF token masked per
 * response"). A page is compressed together with text it reflects (`?q=`): the token's bytes
 * must differ on every response, or the compressed length tells a guess of it.
 */
export function maskedCsrfToken(sessionToken: string): string {
  const token = Buffer.from(csrfTokenFor(sessionToken), "latin1");
  const pad = randomBytes(token.length);
  const out = Buffer.alloc(token.length * 2);
  pad.copy(out, 0);
  for (let i = 0; i < token.length; i++) out[token.length + i] = pad[i]! ^ token[i]!;
  return out.toString("base64url");
}

/** The token a masked value carries, or the value itself when it is not one (the raw token). */
function unmasked(sent: string): string {
  if (!/^[A-Za-z0-9_-]{100,140}$/.test(sent)) return sent;
  const bytes = Buffer.from(sent, "base64url");
  if (bytes.length % 2 !== 0) return sent;
  const half = bytes.length / 2;
  const out = Buffer.alloc(half);
  for (let i = 0; i < half; i++) out[i] = bytes[i]! ^ bytes[half + i]!;
  return out.toString("latin1");
}

export function readSessionCookie(c: Context, publicUrl: string): string | undefined {
  const v = getCookie(c, sessionCookieName(isSecure(publicUrl)));
  return v && /^oabp_[A-Za-z0-9_-]{16,128}$/.test(v) ? v : undefined;
}

/** A state-changing request authenticated by cookie must echo the session's CSRF token (masked or not). */
export function csrfOk(c: Context, sessionToken: string): boolean {
  const sent = c.req.header(CSRF_HEADER);
  return sent !== undefined && constantTimeEqual(unmasked(sent), csrfTokenFor(sessionToken));
}

export function setSessionCookie(c: Context, publicUrl: string, token: string, expiresAt: Date): void {
  const secure = isSecure(publicUrl);
  setCookie(c, sessionCookieName(secure), token, {
    httpOnly: true,
    secure,
    sameSite: "Lax",
    path: "/",
    expires: expiresAt,
  });
}

export function clearSessionCookie(c: Context, publicUrl: string): void {
  const secure = isSecure(publicUrl);
  deleteCookie(c, sessionCookieName(secure), { path: "/", secure });
}
