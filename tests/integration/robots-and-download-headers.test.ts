import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { ATTACHMENT_POLICY } from "~/features/support/attachments.server";
import { sendResponse } from "~/platform/http/react-router-handler.server";
import { securityHeaders } from "~/platform/security/headers.server";
import { loader as robots } from "~/routes/robots[.]txt";

describe("robots.txt", () => {
  it("does not advertise the payment test page (production answers 404 for it anyway)", async () => {
    const body = await robots().text();
    expect(body).not.toContain("test-pagos");
    expect(body).toContain("Disallow: /mi-cuenta");
  });
});

describe("an attachment download", () => {
  let server: http.Server | undefined;
  afterAll(() => server?.close());

  it("carries one Content-Security-Policy, the attachment's stricter one, not the site's too", async () => {
    // As server.ts stacks them: the site's headers first, then the route's answer.
    const app = express();
    app.use(securityHeaders({ isProduction: true }));
    app.get("/soporte/adjuntos/:id", (_req, res, next) => {
      const file = new Response("<script>alert(1)</script>", {
        headers: { "Content-Type": "text/html", "Content-Security-Policy": ATTACHMENT_POLICY },
      });
      sendResponse(res, file).catch(next);
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const policies = await new Promise<string[]>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/soporte/adjuntos/1`, (res) => {
          res.resume();
          // The raw header lines: a Headers object would join two policies into one.
          const lines = res.rawHeaders.filter((_, i) => i % 2 === 0);
          resolve(
            lines
              .map((name, i) => [name, res.rawHeaders[i * 2 + 1]!] as const)
              .filter(([name]) => name.toLowerCase() === "content-security-policy")
              .map(([, value]) => value),
          );
        })
        .on("error", reject);
    });
    expect(policies).toEqual([ATTACHMENT_POLICY]);
    for (const directive of ["default-src 'none'", "sandbox", "frame-ancestors 'none'"])
      expect(ATTACHMENT_POLICY).toContain(directive);
  });
});
