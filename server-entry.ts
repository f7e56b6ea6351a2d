/**
 * The production entry (build/server/index.js). Before the server's modules load, it asks Node to
 * keep their compiled code between starts (Node 22.1 and later; Node 20 has no such cache) and
 * starts the embedded database, whose WebAssembly then compiles while they load (decision 056).
 */
import nodeModule from "node:module";

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { startConfiguredPgliteEarly } = await import("~/platform/db/pglite-start.server");
startConfiguredPgliteEarly();
const { startServer } = await import("./server");
await startServer();
