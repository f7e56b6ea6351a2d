import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger.server";
import { requestLog } from "./request-log.server";

/** The site's logger writing into memory: what would reach stdout, line by line. */
const lines: string[] = [];
const output = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});

const resetToken = "Xq7PzR3kLm9TvW2bNc5YhJ8d";
const verificationJwt =
  "eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImFuYUBleGFtcGxlLmVzIn0.c2lnbmF0dXJlLW9mLXRoZS1saW5r";
const sessionCookie = "vd.session_token=SeSsIoNtOkEn123.firma";

let baseUrl = "";
let close: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.use(requestLog(createLogger("info", output), { coarseAddressPaths: ["/api/analitica"] }));
  // The two links Better Auth mails, answered as it does: a redirect that carries the token on.
  app.get("/api/auth/reset-password/:token", (req, res) => {
    res.redirect(`/actualizar-password?token=${req.params.token}`);
  });
  app.get("/api/auth/verify-email", (_req, res) => {
    res.redirect("/verificar-email");
  });
  // A handler that logs what it was sent, as error paths do.
  app.post("/actualizar-password", express.urlencoded({ extended: false }), (req, res) => {
    res.locals.log.warn(
      { url: req.originalUrl, form: req.body as unknown, headers: req.headers },
      "new password refused",
    );
    res.status(400).send("no");
  });
  app.use((_req, res) => {
    res.send("ok");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

/** Fetches, then waits for the request's line (written when the response has finished). */
async function request(path: string, init: RequestInit = {}) {
  const before = lines.length;
  const response = await fetch(`${baseUrl}${path}`, { redirect: "manual", ...init });
  await response.arrayBuffer();
  await expect
    .poll(() => lines.slice(before).some((line) => line.includes('"request"')))
    .toBe(true);
  return {
    response,
    lines: lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe("the request log", () => {
  it("never records the token of a mailed link, in the path or the query", async () => {
    const reset = await request(
      `/api/auth/reset-password/${resetToken}?callbackURL=${encodeURIComponent("/actualizar-password")}`,
    );
    expect(reset.response.headers.get("Location")).toContain(resetToken);
    expect(reset.lines).toEqual([
      expect.objectContaining({
        msg: "request",
        method: "GET",
        path: "/api/auth/reset-password/[Redacted]",
        status: 302,
      }),
    ]);
    await request(
      `/api/auth/verify-email?token=${verificationJwt}&callbackURL=${encodeURIComponent("/verificar-email")}`,
    );
    await request(`/actualizar-password?token=${resetToken}`);

    const written = lines.join("\n");
    expect(written).not.toContain(resetToken);
    expect(written).not.toContain(verificationJwt.split(".")[2]);
  });

  it("keeps only the network of an analytics beacon's address, and every other address whole", async () => {
    const beacon = await request("/api/analitica?x=1", { method: "POST", body: "{}" });
    expect(beacon.lines).toEqual([
      expect.objectContaining({ path: "/api/analitica", ip: "127.0.0.0/24" }),
    ]);
    const page = await request("/precios");
    expect(page.lines).toEqual([expect.objectContaining({ path: "/precios", ip: "127.0.0.1" })]);
  });

  it("censors secret fields and the tokens of logged URLs in a handler's own lines", async () => {
    const { lines: logged } = await request(`/actualizar-password?token=${resetToken}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: sessionCookie,
        Authorization: "Bearer abc.def.ghi",
      },
      body: new URLSearchParams({
        token: resetToken,
        password: "contraseña-nueva-1",
        confirmPassword: "contraseña-nueva-1",
      }),
    });
    const warning = logged.find((line) => line.msg === "new password refused");
    expect(warning).toMatchObject({
      url: "/actualizar-password?token=[Redacted]",
      form: { token: "[Redacted]", password: "[Redacted]", confirmPassword: "[Redacted]" },
      headers: { cookie: "[Redacted]", authorization: "[Redacted]" },
    });
    const written = JSON.stringify(logged);
    for (const secret of [resetToken, "contraseña-nueva-1", "SeSsIoNtOkEn123", "abc.def.ghi"])
      expect(written).not.toContain(secret);
  });
});

describe("the level of a request's line", () => {
  /** One app per level, each with its own output; the slow threshold made short for the test. */
  async function appLoggingAt(level: "info" | "debug") {
    const written: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
          written.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const app = express();
    app.use(requestLog(createLogger(level, sink), { slowRequestMs: 200 }));
    app.use("/estatico", express.static(import.meta.dirname, { maxAge: "1h" }));
    app.get("/publica", (_req, res) => {
      res.set("Cache-Control", "public, max-age=0, s-maxage=60").send("portada");
    });
    app.get("/publica-ausente", (_req, res) => {
      res.set("Cache-Control", "public, max-age=60").status(404).send("no");
    });
    app.get("/publica-lenta", (_req, res) => {
      setTimeout(() => res.set("Cache-Control", "public, max-age=60").send("lenta"), 300);
    });
    app.get("/renderizada", (_req, res) => {
      res.send("página nueva");
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    /** Each path in turn, then the lines written for them. */
    const linesFor = async (paths: string[]) => {
      for (const path of paths) await (await fetch(`${base}${path}`)).arrayBuffer();
      // A last answer that is always logged: once its line is there, so are the others'.
      await (await fetch(`${base}/renderizada?fin`)).arrayBuffer();
      await expect
        .poll(() => written.some((line) => line.path === "/renderizada" && line.status === 200))
        .toBe(true);
      const lines = written.splice(0).filter((line) => line.msg === "request");
      return lines.slice(0, -1).map((line) => [line.path, line.status, line.level]);
    };
    return { linesFor, close: () => server.close() };
  }

  it("is info for rendered pages, every error and anything slow; nothing for routine answers", async () => {
    const info = await appLoggingAt("info");
    try {
      expect(
        await info.linesFor([
          "/publica",
          "/estatico/request-log.server.test.ts",
          "/publica-ausente",
          "/publica-lenta",
          "/renderizada",
          "/estatico/no-existe.js",
        ]),
      ).toEqual([
        ["/publica-ausente", 404, 30],
        ["/publica-lenta", 200, 30],
        ["/renderizada", 200, 30],
        ["/estatico/no-existe.js", 404, 30],
      ]);
    } finally {
      info.close();
    }
  });

  it("is debug for answers that are the same for everyone, successful and quick", async () => {
    const debug = await appLoggingAt("debug");
    try {
      expect(
        await debug.linesFor(["/publica", "/estatico/request-log.server.test.ts", "/renderizada"]),
      ).toEqual([
        ["/publica", 200, 20],
        ["/estatico/request-log.server.test.ts", 200, 20],
        ["/renderizada", 200, 30],
      ]);
    } finally {
      debug.close();
    }
  });
});
