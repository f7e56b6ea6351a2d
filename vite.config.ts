import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import type { ClientChunk } from "./app/platform/http/client-chunks";
import { lightPageScript } from "./build-tools/light-page-script";

/**
 * A first visit downloads a handful of files, not dozens: React and the router in one chunk
 * (react-dom's client stays with the entry that hydrates, so the browser evaluates them in two
 * tasks instead of one long one), the code every page shares in another, and the forms with
 * their validation library in a third, which pages without a form never download. The page's
 * boot script evaluates them by name (app/platform/http/client-chunks.ts).
 */
type ChunkGroup = { name: ClientChunk; test: RegExp; priority: number; minShareCount?: number };

const clientChunkGroups: ChunkGroup[] = [
  {
    name: "framework",
    test: /node_modules[\\/](?:react|react-router|scheduler|cookie|set-cookie-parser|turbo-stream)[\\/]/,
    priority: 3,
  },
  {
    name: "forms",
    test: /node_modules[\\/]zod[\\/]|[\\/]app[\\/](?:platform[\\/]validation|features[\\/](?:contact|accounts[\\/]account-schemas|identity|payments[\\/]pending-purchase))[\\/.]/,
    minShareCount: 2,
    priority: 1,
  },
  {
    name: "site",
    // The design system and the dates every page shows (platform/dates.ts). Parts shared by
    // signed-in pages only (ui/signed-in, the after-sale forms, Mi Cuenta's
    // purchase list) and the purchase dialog's rules (checkout-form, in its lazy chunk): kept
    // out, or every public page would download them.
    test: /[\\/](?:app[\\/](?:ui(?![\\/]signed-in)|features[\\/](?:layout|catalogue|seo|payments(?![\\/](?:after-sale-rules|pending-purchase|purchase-list|checkout-form))|privacy|consent|legal|analytics))|node_modules[\\/]lucide-react)[\\/]|[\\/]app[\\/]platform[\\/]dates\.ts$/,
    minShareCount: 2,
    priority: 2,
  },
];

/**
 * The server build's second entry, build/server/pglite-worker.js: the worker thread that runs the
 * embedded database (decision 058). Emitted by name because React Router names every entry
 * index.js.
 */
function embeddedDatabaseThread(): Plugin {
  return {
    name: "embedded-database-thread",
    applyToEnvironment: (environment) => environment.name === "ssr",
    buildStart() {
      this.emitFile({
        type: "chunk",
        id: "./app/platform/db/pglite-worker.server.ts",
        fileName: "pglite-worker.js",
      });
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  // The server bundle starts at server-entry.ts, which loads server.ts (Express + the React
  // Router handler), so one module graph holds the database client and configuration: no second
  // copy at runtime. The entry stays build/server/index.js.
  build: isSsrBuild
    ? { rollupOptions: { input: { index: "./server-entry.ts" } }, target: "node20" }
    : {
        rollupOptions: {
          output: {
            codeSplitting: { groups: clientChunkGroups },
          },
        },
      },
  // The server build bundles its dependencies: Node then reads, resolves and compiles a few
  // files at start instead of hundreds (decision 056), and React and the router always run their
  // production code (`npm start` runs in local mode without NODE_ENV=production, see README).
  // Left to node_modules: what loads files from its own folder at run time (PGlite's WebAssembly,
  // pdfkit's fonts, pino's worker, pg's optional native binding), what is optional (Sentry), and
  // what is imported only when first used, so it never costs a start.
  define: isSsrBuild ? { "process.env.NODE_ENV": JSON.stringify("production") } : undefined,
  ssr: isSsrBuild
    ? {
        noExternal: true,
        external: [
          "@electric-sql/pglite",
          "pdfkit",
          "pg",
          "pino",
          "@sentry/node",
          "stripe",
          "nodemailer",
          "prom-client",
          "qrcode",
          "recharts",
          "file-type",
          "@zxcvbn-ts/language-common",
        ],
      }
    : undefined,
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter(), lightPageScript(), embeddedDatabaseThread()],
}));
