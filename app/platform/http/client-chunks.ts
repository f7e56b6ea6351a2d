/**
 * The client chunks vite.config.ts groups shared code into, in dependency order. The page's
 * boot script (deferred-hydration.server.ts) evaluates them one per task, in this order, so
 * no single evaluation blocks the main thread for long.
 */
export const CLIENT_CHUNKS = ["framework", "site", "forms"] as const;

export type ClientChunk = (typeof CLIENT_CHUNKS)[number];
