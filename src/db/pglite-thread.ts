import { createRequire } from "node:module";
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";

// The embedded Postgres on a thread of its own (docs/operations.md "Start time"). PGlite's start
// (its wasm, its file bundle, Postgres' own start: ≈ 0.6 s of CPU) used to share the main thread
// with loading the server's modules (≈ 0.7 s); on its own thread, started before anything else
// is loaded, the two overlap on a second core. Only the wire protocol's bytes cross: the thread
// runs PGlite's `execProtocolRawSync`, and everything above it — statements, parsers,
// transactions, LISTEN — is PGlite's own client code, run on the main thread
// (src/db/pglite-thread.client.ts). This module imports nothing of PGlite, so that the thread is
// spawned at once.

/** The thread's code: CommonJS, evaluated, so that src/ (tsx, vitest) and dist/ run the same. */
const THREAD_CODE = `
const { parentPort, workerData } = require("node:worker_threads");
const { PGlite } = require(workerData.pglite);
const flags = new Int32Array(workerData.flags);
const port = workerData.port;
const failure = (e) => String((e && e.stack) || e);
function answer(reply, transfer) {
  port.postMessage(reply, transfer);
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
}
process.on("exit", () => {
  Atomics.store(flags, 1, 1);
  Atomics.notify(flags, 0);
});
PGlite.create(workerData.dataDir, { startParams: [...PGlite.defaultStartParams, ...workerData.settings] }).then(
  (pg) => {
    port.on("message", async (m) => {
      if (m.close) {
        try {
          await pg.close();
          parentPort.postMessage({ closed: true });
        } catch (e) {
          parentPort.postMessage({ closed: true, error: failure(e) });
        }
        return;
      }
      try {
        const data = pg.execProtocolRawSync(m.message);
        if (m.syncToFs) await pg.syncToFs();
        answer({ data }, [data.buffer]);
      } catch (e) {
        answer({ error: failure(e) });
      }
    });
    parentPort.postMessage({ ready: true });
  },
  (e) => parentPort.postMessage({ failed: failure(e) }),
);
`;

/** The thread, its statements' port and the shared flags: [0] an answer is waiting, [1] the thread exited. */
export interface SpawnedThread {
  worker: Worker;
  port: MessagePort;
  flags: Int32Array;
  /** Resolves once Postgres has started on the thread. */
  started: Promise<void>;
}

/**
 * Starts PGlite in `dataDir` on a new thread, with PGlite's start parameters and `settings`
 * after them; returns at once.
 */
export function spawnPgliteThread(dataDir: string, settings: readonly string[]): SpawnedThread {
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(THREAD_CODE, {
    eval: true,
    workerData: {
      pglite: createRequire(import.meta.url).resolve("@electric-sql/pglite"),
      dataDir,
      settings,
      flags: flags.buffer,
      port: port2,
    },
    transferList: [port2],
  });
  const started = answerOf<{ ready?: true; failed?: string }>(worker, "before it started").then(async (m) => {
    if (m.ready) return;
    await worker.terminate();
    throw new Error(`the embedded database did not start: ${m.failed ?? "no answer"}`);
  });
  started.catch(() => undefined); // awaited by the opener; an error is reported there
  return { worker, port: port1, flags, started };
}

/** The thread's next message on its parent port (not the statements' port), or its failure. */
export function answerOf<T>(worker: Worker, when: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = () => void worker.off("message", onMessage).off("error", onError).off("exit", onExit);
    const onMessage = (m: T) => (done(), resolve(m));
    const onError = (e: Error) => (done(), reject(e));
    const onExit = (code: number) => (
      done(),
      reject(new Error(`the embedded database thread exited (${code}) ${when}`))
    );
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  });
}
