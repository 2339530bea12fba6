import { receiveMessageOnPort } from "node:worker_threads";
import { messages, Mutex, PGlite, protocol, type Transaction } from "@electric-sql/pglite";
import { answerOf, type SpawnedThread } from "./pglite-thread";

// PGlite's client over the wire protocol of a PGlite on another thread (src/db/pglite-thread.ts).
// A statement is answered synchronously, as PGlite in the same thread answers it: the main
// thread waits on a shared flag while the statement runs, so callers see the same order and the
// same blocking as before, without an event-loop turn per protocol message.

/** How long one wait for the thread lasts before the main thread checks that it is still alive. */
const WAIT_SLICE_MS = 1000;

type Reply = { data: Uint8Array; error?: undefined } | { data?: undefined; error: string };
type BackendMessage = Awaited<ReturnType<PGlite["execProtocolStream"]>>[number];
type ProtocolOptions = { syncToFs?: boolean; throwOnError?: boolean; onNotice?: (n: messages.NoticeMessage) => void };

/** PGlite's client half (query, exec, transaction, sql): the class PGlite extends, not exported. */
const PGliteClient = Object.getPrototypeOf(PGlite) as abstract new () => Pick<
  PGlite,
  "query" | "exec" | "transaction" | "sql" | "refreshArrayTypes"
>;

/** LISTEN's channel as Postgres names it (PGlite's rule: unquoted names fold to lower case). */
const postgresName = (channel: string) =>
  channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase();

/** The client of a spawned thread, once Postgres has started there. */
export async function openPgliteThread(thread: SpawnedThread): Promise<PGliteThread> {
  await thread.started;
  thread.worker.unref(); // like PGlite in the main thread, an open database does not keep the process alive
  const db = new PGliteThread(thread);
  await db.refreshArrayTypes(); // what PGlite's own start does last
  return db;
}

export class PGliteThread extends PGliteClient {
  debug = 0;
  readonly #thread: SpawnedThread;
  readonly #queryLock = new Mutex();
  readonly #transactionLock = new Mutex();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #parser = new protocol.Parser();
  #closing = false;
  #closed = false;

  constructor(thread: SpawnedThread) {
    super();
    this.#thread = thread;
  }

  get ready() {
    return !this.#closing && !this.#closed;
  }
  get closed() {
    return this.#closed;
  }

  /** One protocol exchange, answered synchronously by the thread. */
  #exchange(message: Uint8Array, syncToFs: boolean): Uint8Array {
    const { port, flags } = this.#thread;
    port.postMessage({ message, syncToFs });
    while (Atomics.wait(flags, 0, 0, WAIT_SLICE_MS) === "timed-out") if (Atomics.load(flags, 1) === 1) break;
    Atomics.store(flags, 0, 0);
    const reply = receiveMessageOnPort(port)?.message as Reply | undefined;
    if (!reply) throw new Error("the embedded database thread exited");
    if (reply.error !== undefined) throw new Error(`the embedded database failed: ${reply.error}`);
    return reply.data;
  }

  async execProtocolRaw(message: Uint8Array, { syncToFs = true }: ProtocolOptions = {}): Promise<Uint8Array> {
    return Promise.resolve(this.#exchange(message, syncToFs));
  }

  async execProtocolStream(message: Uint8Array, options: ProtocolOptions = {}): Promise<BackendMessage[]> {
    return (await this.execProtocol(message, options)).messages;
  }

  /** As PGlite's: the backend's messages, the first error thrown; notices and notifications passed on. */
  async execProtocol(
    message: Uint8Array,
    { syncToFs = true, throwOnError = true, onNotice }: ProtocolOptions = {},
  ): Promise<{ messages: BackendMessage[]; data: Uint8Array }> {
    const data = this.#exchange(message, syncToFs);
    const results: BackendMessage[] = [];
    let error: messages.DatabaseError | undefined;
    this.#parser.parse(data, (m) => {
      if (error) return;
      if (m instanceof messages.DatabaseError) {
        if (throwOnError) error = m;
      } else if (m instanceof messages.NoticeMessage) onNotice?.(m);
      else if (m instanceof messages.NotificationResponseMessage)
        for (const l of this.#listeners.get(m.channel) ?? []) queueMicrotask(() => l(m.payload));
      results.push(m);
    });
    if (error) {
      this.#parser = new protocol.Parser(); // as PGlite: a fresh parser after an error
      throw error;
    }
    return { messages: results, data };
  }

  async execProtocolRawStream(message: Uint8Array, options: ProtocolOptions & { onRawData: (d: Uint8Array) => void }) {
    options.onRawData(this.#exchange(message, options.syncToFs ?? true));
  }

  /** The thread syncs after each exchange that asks it to (on the host's file system, a no-op). */
  async syncToFs(): Promise<void> {}

  async _handleBlob(blob?: Blob): Promise<void> {
    if (blob) throw new Error("COPY with a blob is not supported by the embedded database's thread");
  }
  async _getWrittenBlob(): Promise<undefined> {
    return undefined;
  }
  async _cleanupBlob(): Promise<void> {}

  async _checkReady(): Promise<void> {
    if (this.#closing) throw new Error("PGlite is closing");
    if (this.#closed) throw new Error("PGlite is closed");
  }
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> {
    return this.#queryLock.runExclusive(fn);
  }
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.#transactionLock.runExclusive(fn);
  }

  async listen(channel: string, callback: (payload: string) => void, tx?: Transaction) {
    const name = postgresName(channel);
    const set = this.#listeners.get(name) ?? new Set();
    this.#listeners.set(name, set.add(callback));
    try {
      await (tx ?? this).exec(`LISTEN ${channel}`);
    } catch (e) {
      set.delete(callback);
      throw e;
    }
    return async (t?: Transaction) => {
      set.delete(callback);
      if (set.size > 0) return;
      this.#listeners.delete(name);
      await (t ?? this).exec(`UNLISTEN ${channel}`);
    };
  }

  /** Waits for the statements in flight, shuts Postgres down cleanly on its thread, then ends the thread. */
  async close(): Promise<void> {
    await this._checkReady();
    const { worker, port } = this.#thread;
    worker.ref(); // the process waits for Postgres' clean shutdown
    await this._runExclusiveTransaction(() => this._runExclusiveQuery(async () => void (this.#closing = true)));
    const closed = answerOf<{ error?: string }>(worker, "while closing");
    port.postMessage({ close: true });
    const { error } = await closed;
    await worker.terminate();
    port.close();
    this.#closing = false;
    this.#closed = true;
    if (error) throw new Error(`closing the embedded database: ${error}`);
  }
}
