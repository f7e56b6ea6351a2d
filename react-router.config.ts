import { join } from "node:path";
import type { Config } from "@react-router/dev/config";
import { writePgliteTemplate } from "./build-tools/pglite-template";
import { precompressDirectory } from "./build-tools/precompress";

/** Read by the server at first start: app/platform/db/client.server.ts. */
const PGLITE_TEMPLATE_DIRECTORY = "pglite-template";

export default {
  ssr: true,
  async buildEnd({ reactRouterConfig }) {
    precompressDirectory(join(reactRouterConfig.buildDirectory, "client"));
    await writePgliteTemplate(
      join(reactRouterConfig.buildDirectory, PGLITE_TEMPLATE_DIRECTORY),
      "drizzle",
    );
  },
} satisfies Config;
