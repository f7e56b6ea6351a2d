import { join } from "node:path";
import type { Config } from "@react-router/dev/config";
import { precompressDirectory } from "./build-tools/precompress";

export default {
  ssr: true,
  buildEnd({ reactRouterConfig }) {
    precompressDirectory(join(reactRouterConfig.buildDirectory, "client"));
  },
} satisfies Config;
