import { existsSync, readdirSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import express, { type RequestHandler } from "express";

type Encoding = "br" | "gzip";
const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

function relativeFiles(root: string, directory = root): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? relativeFiles(root, path) : [relative(root, path)];
  });
}

/** The best encoding the client accepts among the copies we have (`br;q=0` means refused). */
export function negotiateEncoding(accept: string | undefined, available: Set<Encoding>) {
  if (!accept) return undefined;
  const accepted = new Set(
    accept
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, quality]) => !quality || !/^\s*q=0(?:\.0*)?\s*$/.test(quality))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  return (["br", "gzip"] as const).find(
    (encoding) => available.has(encoding) && (accepted.has(encoding) || accepted.has("*")),
  );
}

/**
 * Serves the build's `.br`/`.gz` copies (written by build-tools/precompress.ts) to clients
 * that accept them, and the original file otherwise. The list of copies is read once at
 * start: the build directory does not change while the server runs.
 */
export function precompressedStatic(
  root: string,
  options: Parameters<typeof express.static>[1],
): RequestHandler {
  const copies = new Map<string, Set<Encoding>>();
  for (const file of relativeFiles(root)) {
    const encoding = (Object.keys(SUFFIX) as Encoding[]).find((e) => file.endsWith(SUFFIX[e]));
    if (!encoding) continue;
    const urlPath = `/${file.slice(0, -SUFFIX[encoding].length).split(sep).join("/")}`;
    copies.set(urlPath, (copies.get(urlPath) ?? new Set()).add(encoding));
  }
  const serveFile = express.static(root, options);

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const available = copies.get(req.path);
    if (!available) return serveFile(req, res, next);
    res.vary("Accept-Encoding");
    const encoding = negotiateEncoding(req.get("accept-encoding"), available);
    if (!encoding) return serveFile(req, res, next);
    // The type of the original file, not of its compressed copy.
    res.type(extname(req.path));
    res.setHeader("Content-Encoding", encoding);
    const originalUrl = req.url;
    req.url = `${req.path}${SUFFIX[encoding]}`;
    serveFile(req, res, (error?: unknown) => {
      req.url = originalUrl;
      next(error);
    });
  };
}
