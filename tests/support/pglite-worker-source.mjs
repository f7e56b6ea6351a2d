// The embedded database's worker thread from its TypeScript source, for tests: the build bundles
// app/platform/db/pglite-worker.server.ts into build/server/pglite-worker.js (decision 058).
import { register } from "tsx/esm/api";

register();
await import("../../app/platform/db/pglite-worker.server.ts");
