import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { constantTimeEqual, sha256Hex } from "../lib/hash";

// Browser sessions: the web board signs in with SIWE like an agent does, but keeps the
// session token in an HttpOnly cookie instead of handing it to page script. Agents keep bearer
// tokens; a request that carries Authorization or an api_key never looks at the cookie.

/** `__Host-` pins the cookie to this origin, Path=/ and Secure (RFC 6265bis §4.1.3.2); https only. */
export const sessionCookieName = (secure: boolean) => (secure ? "__Host-oabp_session" : "oabp_session");
export const CSRF_HEADER = "x-csrf-token";

const isSecure = (publicUrl: string) => publicUrl.startsWith("https://");

/**
 * The CSRF token of a session: derived from the session token, so nothing more is stored and a
 * page can only learn it from a server-rendered response (never from a cross-site read).
 */
export const csrfTokenFor = (sessionToken: string) => sha256Hex(`oabp-csrf:${sessionToken}`).slice(0, 43);

export function readSessionCookie(c: Context, publicUrl: string): string | undefined {
  const v = getCookie(c, sessionCookieName(isSecure(publicUrl)));
  return v && /^oabp_[A-Za-z0-9_-]{16,128}$/.test(v) ? v : undefined;
}

/** A state-changing request authenticated by cookie must echo the session's CSRF token. */
export function csrfOk(c: Context, sessionToken: string): boolean {
  const sent = c.req.header(CSRF_HEADER);
  return sent !== undefined && constantTimeEqual(sent, csrfTokenFor(sessionToken));
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
