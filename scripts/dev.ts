/** Development server: the same Express app as production, with Vite serving the modules. */
import { createServer } from "vite";
import type * as ServerModule from "../server";

const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const entry = (await vite.ssrLoadModule("./server.ts")) as typeof ServerModule;
await entry.startServer({ viteDevServer: vite });
