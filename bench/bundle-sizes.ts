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

/** Public pages' script on a first visit, brotli (decision 038): the bench fails above it. */
export const PUBLIC_PAGE_SCRIPT_BUDGET_BYTES = 30 * 1024;

/** `import … from "./x.js"` and `import "./x.js"` of a built module: what loads with it. */
const STATIC_IMPORT = /\bimport\s*(?:[\w{}*,\s$]+from\s*)?["'](\.\/[^"']+\.js)["']/g;

/**
 * JavaScript a first visit to a page downloads, read from the page itself: each `<script src>`
 * and `modulepreload` of its HTML and what those modules import statically (a light page has no
 * React Router manifest; scripts fetched later, on an interaction, are not counted).
 */
export function pageScriptSizes(html: string) {
  const pending = [
    ...html.matchAll(/<script\b[^>]*\bsrc="(\/assets\/[^"]+\.js)"/g),
    ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="(\/assets\/[^"]+\.js)"/g),
  ].map((match) => match[1]!);
  const files = new Set<string>();
  while (pending.length) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(path.join(clientDir, file), "utf8");
    for (const [, relative] of source.matchAll(STATIC_IMPORT))
      pending.push(path.posix.join(path.posix.dirname(file), relative!));
  }
  return { js: sizes(files), files: [...files] };
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
