import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server bundle starts at server.ts (Express + the React Router handler), so one
  // module graph holds the database client and configuration: no second copy at runtime.
  build: isSsrBuild ? { rollupOptions: { input: "./server.ts" }, target: "node20" } : {},
  // React and the router are bundled into the server build so it always runs their production
  // code: `npm start` runs in local mode without NODE_ENV=production (see README).
  define: isSsrBuild ? { "process.env.NODE_ENV": JSON.stringify("production") } : undefined,
  ssr: isSsrBuild
    ? {
        noExternal: [
          "react",
          "react-dom",
          "react-router",
          /^@react-router\//,
          "scheduler",
          "lucide-react",
        ],
      }
    : undefined,
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
}));
