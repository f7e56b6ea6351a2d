import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

type ManifestRoute = { module: string; imports?: string[]; parentId?: string };
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

function compressedSizes(contents: Buffer[]) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const content of contents) {
    raw += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
    brotli += brotliCompressSync(content).length;
  }
  return { raw, gzip, brotli };
}

const sizes = (files: Set<string>) =>
  compressedSizes([...files].map((file) => readFileSync(path.join(clientDir, file))));

/** The stylesheet is inlined into every document: its size, measured on a served page. */
export function inlineStyleSizes(html: string) {
  const css = /<style id="site-styles">([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
  return compressedSizes([Buffer.from(css)]);
}

/** JavaScript a first visit to each route downloads (entry, root and the route). */
export function routeBundleSizes(routeIds: Record<string, string>) {
  const manifest = readManifest();
  const result: Record<string, { js: ReturnType<typeof sizes> }> = {};
  for (const [label, routeId] of Object.entries(routeIds)) {
    const js = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
    for (const id of ["root", routeId]) {
      const route = manifest.routes[id];
      if (!route) continue;
      js.add(route.module);
      for (const file of route.imports ?? []) js.add(file);
    }
    // The manifest itself is loaded on every page too.
    const manifestFile = readdirSync(path.join(clientDir, "assets")).find((name) =>
      name.startsWith("manifest-"),
    )!;
    js.add(`/assets/${manifestFile}`);
    result[label] = { js: sizes(js) };
  }
  return result;
}
