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
