import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestApp, PUBLIC_URL, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";

// The A2A 1.0 agent card declares only what is served (docs/a2a.md): every
// supportedInterfaces entry is requested and answers in its binding; the capabilities it declares
// false are refused with the A2A errors; auth is the bearer scheme it declares; the binding's
// errors are JSON-RPC error objects with an ErrorInfo naming the reason.
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signIn(t)).token;
});
afterAll(async () => t?.close());

const card = async () => (await t.call("GET", "/.well-known/agent-card.json")).body;
const path = (url: string) => {
  expect(new URL(url).origin).toBe(PUBLIC_URL);
  return new URL(url).pathname;
};

async function rpc(
  method: string,
  params: unknown,
  o: { token?: string | null; version?: string | null; url?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (o.version !== null) headers["a2a-version"] = o.version ?? "1.0";
  return t.call("POST", o.url ?? "/a2a", {
    token: o.token === null ? undefined : (o.token ?? token),
    headers,
    body: { jsonrpc: "2.0", id: 7, method, params },
  });
}
const reasonOf = (r: { body: any }) => r.body.error.data[0].reason;

describe("the card declares only what is served", () => {
  it("A2A 1.0 shape: supportedInterfaces, no top-level url, no stateTransitionHistory, bearer security", async () => {
    const c = await card();
    expect(c.url).toBeUndefined();
    expect(c.capabilities.stateTransitionHistory).toBeUndefined();
    expect(c.capabilities).toMatchObject({ streaming: false, pushNotifications: true, extendedAgentCard: false });
    expect(c.supportedInterfaces.length).toBeGreaterThan(0);
    expect(c.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: expect.objectContaining({ scheme: "Bearer" }) },
    });
    expect(c.securityRequirements).toEqual([{ schemes: { bearer: { list: ["agent"] } } }]);
    expect(c.skills.map((s: { id: string }) => s.id)).toEqual(["oabp.missions", "oabp.submit"]);
    // The AIP-1 §9.3 / §7.4 fields, repeated in the signed extension.
    const ext = c.capabilities.extensions.find((e: { uri: string }) => e.uri === "urn:oabp:a2a-extension:aip-1:v1");
    expect(ext.params).toMatchObject({
      oabp_manifest: c.oabp_manifest,
      endpoints: c.endpoints,
      protocols: c.protocols,
    });
  });

  it("each declared interface answers in its binding; the bindings not declared are not served", async () => {
    const c = await card();
    for (const i of c.supportedInterfaces) {
      expect(i.protocolVersion).toBe("1.0");
      expect(i.protocolBinding).toBe("JSONRPC");
      const r = await rpc("GetTask", { id: "sub_unknown" }, { url: path(i.url) });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32001 } });
      const list = await rpc("ListTasks", {}, { url: path(i.url) });
      expect(list.body.result).toEqual({ tasks: [], nextPageToken: "", pageSize: 20, totalSize: 0 });
    }
    // HTTP+JSON (A2A §11) is not declared, and not served.
    expect((await t.call("POST", "/message:send", { token, body: {} })).status).toBe(404);
    expect((await t.call("GET", "/tasks/sub_x", { token })).status).toBe(404);
  });

  it("capabilities declared false are refused with their A2A errors; declared push is served", async () => {
    // pushNotifications: true — the config methods answer (an unknown task is TaskNotFound).
    const push = await rpc("CreateTaskPushNotificationConfig", { taskId: "sub_x", url: "https://example.org/hook" });
    expect(push.body.error.code).toBe(-32001);
    for (const m of ["GetTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig"])
      expect((await rpc(m, { taskId: "sub_x", id: "p" })).body.error.code, m).toBe(-32001);
    expect((await rpc("ListTaskPushNotificationConfigs", { taskId: "sub_x" })).body.error.code).toBe(-32001);
    expect((await rpc("SendStreamingMessage", {})).body.error.code).toBe(-32004);
    expect((await rpc("SubscribeToTask", { id: "sub_x" })).body.error.code).toBe(-32004);
    expect((await rpc("GetExtendedAgentCard", {})).body.error.code).toBe(-32004);
    // A config inline in SendMessage is not taken: it is set on the task once it exists.
    const withPush = await rpc("SendMessage", {
      message: { messageId: "m-push", role: "ROLE_USER", parts: [{ text: "x" }] },
      configuration: { taskPushNotificationConfig: { url: "https://example.org/hook" } },
    });
    expect(withPush.body.error.code).toBe(-32602);
    expect(withPush.body.error.data[0].reason).toBe("push_config_inline");
  });
});

describe("the binding's errors", () => {
  it("auth as declared: no token → 401 with WWW-Authenticate; the admin token is not an agent", async () => {
    const r = await rpc("ListTasks", {}, { token: null });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(r.body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32000 } });
    expect(r.body.error.data[0]).toMatchObject({
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "UNAUTHORIZED",
    });
  });

  it("a token refused before the handler (expired, unknown) still gets the binding's JSON-RPC shape", async () => {
    const r = await rpc("ListTasks", {}, { token: "not-a-live-token" });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(r.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(r.body.error.data[0]).toMatchObject({ reason: "UNAUTHORIZED", metadata: { code: "UNAUTHORIZED" } });
  });

  it("A2A §3.6.2: no A2A-Version (0.3) or another version → VersionNotSupported", async () => {
    expect((await rpc("ListTasks", {}, { version: null })).body.error.code).toBe(-32009);
    expect((await rpc("ListTasks", {}, { version: "0.3" })).body.error.code).toBe(-32009);
    expect((await rpc("ListTasks", {}, { version: "1.0" })).body.result).toBeDefined();
    expect((await rpc("ListTasks", { status: "UNRECOGNIZED" })).body.error.code).toBe(-32602);
  });

  it("malformed JSON, a non-request, an unknown method", async () => {
    const bad = await t.call("POST", "/a2a", { token, headers: { "a2a-version": "1.0" }, body: "{not json" });
    expect(bad.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    const notReq = await t.call("POST", "/a2a", { token, headers: { "a2a-version": "1.0" }, body: { hello: 1 } });
    expect(notReq.body.error.code).toBe(-32600);
    expect((await rpc("tasks/get", { id: "x" })).body.error.code).toBe(-32601);
    expect((await t.call("GET", "/a2a")).status).toBe(405);
  });

  it("strict OABP payloads: an unknown field in the data part is named; file parts are refused", async () => {
    const { mission } = await openMission(t);
    const r = await rpc("SendMessage", {
      message: { messageId: "m-1", role: "ROLE_USER", parts: [{ data: { mission_id: mission.id, contnet: "x" } }] },
    });
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toMatch(/contnet/);
    const file = await rpc("SendMessage", {
      message: { messageId: "m-2", role: "ROLE_USER", parts: [{ url: "https://example.org/x.txt" }] },
    });
    expect(file.body.error.code).toBe(-32005);
    const many = await rpc("SendMessage", {
      message: { messageId: "m-3", role: "ROLE_USER", parts: Array.from({ length: 17 }, () => ({ text: "x" })) },
    });
    expect(many.body.error.code).toBe(-32602);
  });

  it("another agent's task is TaskNotFound; a submission is not cancelable; a retried messageId is one submission", async () => {
    const { mission } = await openMission(t);
    const send = () =>
      rpc("SendMessage", {
        message: { messageId: "same-id", role: "ROLE_USER", parts: [{ text: "my work" }], contextId: mission.id },
      });
    const first = await send();
    expect(first.body.result.task).toMatchObject({ contextId: mission.id, status: { state: "TASK_STATE_SUBMITTED" } });
    const again = await send();
    expect(again.body.result.task.id).toBe(first.body.result.task.id);
    expect((await t.call("GET", `/missions/${mission.id}`)).body.submission_count).toBe(1);
    const id = first.body.result.task.id;
    const other = (await signIn(t)).token;
    expect((await rpc("GetTask", { id }, { token: other })).body.error.code).toBe(-32001);
    expect((await rpc("CancelTask", { id }, { token: other })).body.error.code).toBe(-32001);
    const cancel = await rpc("CancelTask", { id });
    expect(cancel.body.error.code).toBe(-32002);
    expect(reasonOf(cancel)).toBe("submission_not_withdrawable");
    const more = await rpc("SendMessage", {
      message: { messageId: "m-4", role: "ROLE_USER", parts: [{ text: "more" }], taskId: id },
    });
    expect(more.body.error.code).toBe(-32004);
    // A refusal of an OABP rule: -32000 with the REST code and reason.
    const dup = await rpc("SendMessage", {
      message: { messageId: "other-id", role: "ROLE_USER", parts: [{ text: "my work" }], contextId: mission.id },
    });
    expect(dup.body.error.code).toBe(-32000);
    expect(dup.body.error.data[0].metadata.code).toBeDefined();
    expect(
      (await rpc("ListTasks", { contextId: mission.id })).body.result.tasks.map((x: { id: string }) => x.id),
    ).toEqual([id]);
  });
});
