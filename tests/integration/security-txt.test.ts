import { describe, expect, it } from "vitest";
import { getConfig } from "~/platform/config.server";
import routeConfig from "~/routes";
import { loader } from "~/routes/security[.]txt";

/** RFC 9116: /.well-known/security.txt says where to report a vulnerability. */
describe("/.well-known/security.txt", () => {
  it("is a route of the site", () => {
    const paths = (routeConfig as { path?: string; file: string }[]).map((entry) => entry.path);
    expect(paths).toContain(".well-known/security.txt");
  });

  it("names the contact, an expiry within a year, the languages and its canonical address", async () => {
    const answer = loader();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    const fields = new Map(
      (await answer.text())
        .trim()
        .split("\n")
        .map((line) => [
          line.slice(0, line.indexOf(":")),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
    );
    const { siteUrl, company } = getConfig();
    expect(fields.get("Contact")).toBe(`mailto:${company.contactEmail}`);
    expect(fields.get("Preferred-Languages")).toBe("es, en");
    expect(fields.get("Canonical")).toBe(`${siteUrl}/.well-known/security.txt`);
    const expires = Date.parse(fields.get("Expires") ?? "");
    expect(fields.get("Expires")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(expires).toBeGreaterThan(Date.now() + 30 * 24 * 60 * 60_000);
    expect(expires).toBeLessThan(Date.now() + 365 * 24 * 60 * 60_000);
  });
});
