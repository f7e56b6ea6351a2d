/**
 * The production entry (build/server/index.js). Before the server's modules load, it asks Node to
 * keep their compiled code between starts (Node 22.1 and later; Node 20 has no such cache) and
 * starts the embedded database in its worker thread (build/server/pglite-worker.js), which then
 * compiles and opens it while they load (decisions 056, 058 and 060).
 */
import nodeModule from "node:module";

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { startConfiguredPgliteEarly } = await import("~/platform/db/early-start.server");
startConfiguredPgliteEarly(new URL("./pglite-worker.js", import.meta.url));
// V8's flags are the process's, and V8 accepts a module's kept code only under the flags it was
// compiled with: the server's modules compile after the worker's flag is set, never during.
const { raiseWasmTieringBudget } = await import("~/platform/db/wasm-tiering.server");
raiseWasmTieringBudget();
const { startServer } = await import("./server");
await startServer();
