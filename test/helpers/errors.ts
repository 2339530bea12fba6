import { expect } from "vitest";
import type { TestApp } from "./app";

type Res = Awaited<ReturnType<TestApp["call"]>>;

/** Asserts the one error body of docs/design.md "Wire conventions": {error, message, request_id: req_…, details?}. */
export function expectError(r: Res, status: number, code: string) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({
    error: code,
    message: expect.any(String),
    request_id: expect.stringMatching(/^req_/),
  });
  for (const k of Object.keys(r.body)) expect(["error", "message", "request_id", "details"]).toContain(k);
}
