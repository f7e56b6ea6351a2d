import { request } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestFrom } from "./react-router-handler.server";

/**
 * An answer given before the body is read (a ticket over its quota, a limit) must reach the
 * client or proxy whole: the rest of the body is drained, never cut off with a reset connection,
 * which nginx turns into a 502 and counts against the instance.
 */
let port = 0;
let close: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.post("/sin-leer", (req, res) => {
    requestFrom(req, res);
    res.status(429).type("text/plain").send("Demasiados mensajes");
  });
  app.post("/a-medias", async (req, res) => {
    const reader = requestFrom(req, res).body!.getReader();
    await reader.read();
    await reader.cancel();
    res.status(413).type("text/plain").send("Demasiado grande");
  });
  app.post("/abandonado", async (req, res) => {
    const reader = requestFrom(req, res).body!.getReader();
    await reader.read();
    res.status(413).type("text/plain").send("Demasiado grande");
  });
  app.post("/entero", async (req, res) => {
    const body = await requestFrom(req, res).arrayBuffer();
    res.type("text/plain").send(String(body.byteLength));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
  close = () => server.close();
});

afterAll(() => close());

function post(path: string, bytes: number) {
  return new Promise<{ status: number; text: string } | { error: string }>((resolve) => {
    const body = Buffer.alloc(bytes, 7);
    const req = request(
      { host: "127.0.0.1", port, path, method: "POST", headers: { "Content-Length": bytes } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on("error", (error) => resolve({ error: error.message }));
    req.end(body);
  });
}

describe("a request body the answer did not need", () => {
  it("is drained, so an answer given before reading it arrives", async () => {
    for (let i = 0; i < 10; i++)
      expect(await post("/sin-leer", 6 * 1024 * 1024)).toEqual({
        status: 429,
        text: "Demasiados mensajes",
      });
  });

  it("is drained after a handler read part of it and cancelled the rest", async () => {
    for (let i = 0; i < 10; i++)
      expect(await post("/a-medias", 6 * 1024 * 1024)).toEqual({
        status: 413,
        text: "Demasiado grande",
      });
  });

  it("is drained after a handler read part of it and left the rest", async () => {
    for (let i = 0; i < 10; i++)
      expect(await post("/abandonado", 6 * 1024 * 1024)).toEqual({
        status: 413,
        text: "Demasiado grande",
      });
  });

  it("still reaches a handler that reads it all", async () => {
    expect(await post("/entero", 3 * 1024 * 1024 + 5)).toEqual({
      status: 200,
      text: String(3 * 1024 * 1024 + 5),
    });
  });
});
