import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { negotiateEncoding, precompressedStatic } from "./precompressed-static.server";

describe("negotiateEncoding", () => {
  const both = new Set(["br", "gzip"] as const);
  it("prefers brotli, then gzip, among the copies available", () => {
    expect(negotiateEncoding("gzip, deflate, br, zstd", both)).toBe("br");
    expect(negotiateEncoding("gzip, deflate", both)).toBe("gzip");
    expect(negotiateEncoding("gzip, br", new Set(["gzip"] as const))).toBe("gzip");
  });
  it("honours a refusal and an absent header", () => {
    expect(negotiateEncoding("br;q=0, gzip", both)).toBe("gzip");
    expect(negotiateEncoding("identity", both)).toBeUndefined();
    expect(negotiateEncoding(undefined, both)).toBeUndefined();
  });
});

describe("precompressedStatic", () => {
  const script = "console.log('precompressed');\n".repeat(100);
  let baseUrl = "";
  let close: () => void = () => undefined;

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), "precompressed-"));
    writeFileSync(path.join(root, "app.js"), script);
    writeFileSync(path.join(root, "app.js.br"), brotliCompressSync(script));
    writeFileSync(path.join(root, "app.js.gz"), gzipSync(script));
    writeFileSync(path.join(root, "plain.txt"), "sin comprimir");
    const app = express().use(precompressedStatic(root, { index: false }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  async function get(file: string, acceptEncoding: string) {
    // fetch() decodes the body by its Content-Encoding: the text must be the original.
    return fetch(`${baseUrl}/${file}`, { headers: { "accept-encoding": acceptEncoding } });
  }

  it("serves the brotli copy with the original type to a browser that accepts it", async () => {
    const response = await get("app.js", "gzip, deflate, br");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(response.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(await response.text()).toBe(script);
  });

  it("serves the gzip copy when brotli is not accepted", async () => {
    const response = await get("app.js", "gzip");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(await response.text()).toBe(script);
  });

  it("serves the original file when no encoding is accepted, or there is no copy", async () => {
    const identity = await get("app.js", "identity");
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(await identity.text()).toBe(script);
    const plain = await get("plain.txt", "br");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe("sin comprimir");
  });

  it("answers 404 through the next handler for a missing file", async () => {
    expect((await get("missing.js", "br")).status).toBe(404);
  });
});
