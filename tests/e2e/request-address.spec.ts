import { request as httpRequest } from "node:http";
import { expect, test } from "./fixtures";

/**
 * The address a request names, through the built server (decision 034): a path that starts with
 * `//` is never read as another host, a malformed Host is a 400, and a public page asked for
 * with a campaign's query is the cached page, with what the browser reads from the query
 * (`?comprar=`) working as before.
 */

type Answer = { status: number; headers: Record<string, string>; body: string };

/** The raw request target and headers (fetch and Playwright would normalise `//evil.com`). */
function rawGet(baseURL: string, target: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(baseURL);
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

test("//evil.com/precios is a path on this site, never a page of /precios with evil.com as its host", async ({
  baseURL,
}) => {
  for (const target of ["//evil.com/precios", "/\\evil.com/precios", "///evil.com/precios?x=1"]) {
    const answer = await rawGet(baseURL!, target);
    expect(answer.status, target).toBe(301);
    expect(answer.headers.location, target).toMatch(/^\/evil\.com\/precios(?:\?x=1)?$/);
    expect(new URL(answer.headers.location!, baseURL).origin).toBe(new URL(baseURL!).origin);
  }
  // Where it leads is not a page, and nothing in it names evil.com as a host.
  const landed = await rawGet(baseURL!, "/evil.com/precios");
  expect(landed.status).toBe(404);
  expect(landed.body).not.toMatch(/(?:https?:)?\/\/evil\.com/);
  // A doubled slash before a real page still reaches it, in two steps.
  const doubled = await rawGet(baseURL!, "//precios");
  expect(doubled).toMatchObject({ status: 301, headers: { location: "/precios" } });
});

test("a malformed Host answers 400 'Petición no válida', never 500", async ({ baseURL }) => {
  // Also when the page cache holds the page, and would answer before Express.
  await rawGet(baseURL!, "/precios");
  await expect
    .poll(async () => (await rawGet(baseURL!, "/precios")).headers["x-page-cache"])
    .toBe("hit");
  for (const host of ["a b", "evil.com/x", "a@b", "[zz]", "localhost:99999"]) {
    const answer = await rawGet(baseURL!, "/precios", { Host: host });
    expect(answer.status, host).toBe(400);
    expect(answer.body, host).toBe("Petición no válida");
  }
  // Well-formed hosts are served (SITE_URL, not Host, is what links name).
  for (const host of ["localhost", "127.0.0.1:3000", "[::1]:8080", "www.example.es"]) {
    const answer = await rawGet(baseURL!, "/precios", { Host: host });
    expect(answer.status, host).toBe(200);
    expect(answer.body).not.toContain("www.example.es");
  }
});

test("a public page with a campaign's query is served from the page cache", async ({ baseURL }) => {
  await rawGet(baseURL!, "/");
  await expect.poll(async () => (await rawGet(baseURL!, "/")).headers["x-page-cache"]).toBe("hit");
  const campaign = await rawGet(baseURL!, "/?utm_source=x&fbclid=y");
  expect(campaign.status).toBe(200);
  expect(campaign.headers["x-page-cache"]).toBe("hit");
  expect(campaign.headers.etag).toBe((await rawGet(baseURL!, "/")).headers.etag);
});

test("?comprar= still opens the purchase dialog on a service page served from the cache", async ({
  page,
  baseURL,
}) => {
  await rawGet(baseURL!, "/ciberseguridad");
  await expect
    .poll(async () => (await rawGet(baseURL!, "/ciberseguridad")).headers["x-page-cache"])
    .toBe("hit");
  const response = await page.goto("/ciberseguridad?comprar=ciberseguridad&utm_source=boletin");
  expect(response?.headers()["x-page-cache"]).toBe("hit");
  const dialog = page.getByRole("dialog", { name: "Registro Requerido" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Ciberseguridad");
  await expect(page).toHaveURL(/\/ciberseguridad\?comprar=ciberseguridad&utm_source=boletin$/);
});
