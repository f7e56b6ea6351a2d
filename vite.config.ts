import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server bundle starts at server.ts (Express + the React Router handler), so one
  // module graph holds the database client and configuration: no second copy at runtime.
  build: isSsrBuild ? { rollupOptions: { input: "./server.ts" }, target: "node20" } : {},
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
}));
