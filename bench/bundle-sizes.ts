import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

type ManifestRoute = { module: string; imports?: string[]; css?: string[]; parentId?: string };
type Manifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
};

const clientDir = "build/client";

function readManifest(): Manifest {
  const file = readdirSync(path.join(clientDir, "assets")).find((name) =>
    name.startsWith("manifest-"),
  );
  const source = readFileSync(path.join(clientDir, "assets", file!), "utf8");
  return JSON.parse(
    source.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, ""),
  ) as Manifest;
}

function sizes(files: Set<string>) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const content = readFileSync(path.join(clientDir, file));
    raw += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
    brotli += brotliCompressSync(content).length;
  }
  return { raw, gzip, brotli };
}

/** JavaScript and CSS a first visit to each route downloads (entry, root and the route). */
export function routeBundleSizes(routeIds: Record<string, string>) {
  const manifest = readManifest();
  const result: Record<string, { js: ReturnType<typeof sizes>; css: ReturnType<typeof sizes> }> =
    {};
  for (const [label, routeId] of Object.entries(routeIds)) {
    const js = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
    const css = new Set<string>();
    for (const id of ["root", routeId]) {
      const route = manifest.routes[id];
      if (!route) continue;
      js.add(route.module);
      for (const file of route.imports ?? []) js.add(file);
      for (const file of route.css ?? []) css.add(file);
    }
    // The manifest itself is loaded on every page too.
    const manifestFile = readdirSync(path.join(clientDir, "assets")).find((name) =>
      name.startsWith("manifest-"),
    )!;
    js.add(`/assets/${manifestFile}`);
    result[label] = { js: sizes(js), css: sizes(css) };
  }
  return result;
}
