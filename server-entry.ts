/**
 * The production entry (build/server/index.js). Before the server's modules load, it asks Node to
 * keep their compiled code between starts (Node 22.1 and later; Node 20 has no such cache) and
 * starts the embedded database in its worker thread (build/server/pglite-worker.js), which then
 * compiles and opens it while they load (decisions 056 and 058).
 */
import nodeModule from "node:module";

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { startConfiguredPgliteEarly } = await import("~/platform/db/early-start.server");
startConfiguredPgliteEarly(new URL("./pglite-worker.js", import.meta.url));
const { startServer } = await import("./server");
await startServer();
