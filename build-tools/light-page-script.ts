import { build, type Plugin, type ResolvedConfig } from "vite";

/**
 * The one script of a light page (decision 038): `app/entry.light.ts`, bundled on its own so it
 * shares no chunk with the React application (the client build's chunk groups would otherwise
 * pull the code both use into the `site` chunk, and with it everything else there).
 *
 * The server learns the script's hashed address from `virtual:light-page-script`. The server
 * build runs after the client build (which empties build/client), so the script is bundled when
 * the server build first asks for that module. In development it is served from its source.
 */
export const LIGHT_PAGE_SCRIPT_MODULE = "virtual:light-page-script";
const RESOLVED_ID = `\0${LIGHT_PAGE_SCRIPT_MODULE}`;
const ENTRY = "app/entry.light.ts";

export function lightPageScript(): Plugin {
  let config: ResolvedConfig;
  let builtUrl: Promise<string> | undefined;

  async function bundle(): Promise<string> {
    const output = await build({
      configFile: false,
      root: config.root,
      logLevel: "warn",
      resolve: { tsconfigPaths: true },
      build: {
        outDir: "build/client",
        emptyOutDir: false,
        copyPublicDir: false,
        target: "es2022",
        rollupOptions: {
          input: { "light-script": ENTRY },
          output: {
            entryFileNames: "assets/[name]-[hash].js",
            chunkFileNames: "assets/light-script-[name]-[hash].js",
          },
        },
      },
    });
    const outputs = Array.isArray(output) ? output : [output];
    for (const result of outputs) {
      if (!("output" in result)) continue;
      const entry = result.output.find((chunk) => chunk.type === "chunk" && chunk.isEntry);
      if (entry) return `/${entry.fileName}`;
    }
    throw new Error(`${ENTRY} produced no entry chunk`);
  }

  return {
    name: "light-page-script",
    configResolved(resolved) {
      config = resolved;
    },
    resolveId(id) {
      return id === LIGHT_PAGE_SCRIPT_MODULE ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      if (config.command === "serve") return `export default "/${ENTRY}";`;
      // The browser's build never renders a light page: it only needs the module to exist.
      const serverBuild = this.environment
        ? this.environment.config.consumer === "server"
        : Boolean(config.build.ssr);
      if (!serverBuild) return `export default "";`;
      builtUrl ??= bundle();
      return `export default ${JSON.stringify(await builtUrl)};`;
    },
  };
}
