import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETURN_PATH,
  RETURN_PATH_MAX,
  returnPathOf,
  safeReturnPath,
  withReturnPath,
} from "./return-path";

const SITE = "https://www.example.es";

/** What a browser does with the path as a Location header on this site. */
const landsOnThisSite = (path: string) => new URL(path, SITE).origin === SITE;

describe("safeReturnPath", () => {
  it("keeps paths of this site, with their query and fragment", () => {
    expect(safeReturnPath("/perfil")).toBe("/perfil");
    expect(safeReturnPath("/mi-cuenta?tab=soporte")).toBe("/mi-cuenta?tab=soporte");
    expect(safeReturnPath("/precios?comprar=ciberseguridad#ciberseguridad")).toBe(
      "/precios?comprar=ciberseguridad#ciberseguridad",
    );
    expect(safeReturnPath("/")).toBe("/");
  });

  it.each([
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with a path", "//evil.com/precios"],
    ["backslash", "/\\evil.com"],
    ["two backslashes", "\\\\evil.com"],
    ["backslash later on", "/precios\\..\\\\evil.com"],
    ["another site", "https://evil.com"],
    ["another site without a slash", "https:evil.com"],
    ["encoded slashes", "/%2F%2Fevil.com"],
    ["encoded backslash", "/%5Cevil.com"],
    ["encoded, without the first slash", "%2F%2Fevil.com"],
    ["javascript:", "javascript:alert(1)"],
    ["javascript: after a slash", "/javascript:alert(1)//%0a"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["CR LF (header splitting)", "/precios\r\nSet-Cookie: a=b"],
    ["encoded CR LF", "/precios%0d%0aSet-Cookie:%20a=b"],
    ["tab in the slashes", "/\t/evil.com"],
    ["NUL", "/precios\u0000"],
    ["dot segments that climb to //", "/a/..//evil.com"],
    ["encoded dot segments", "/a/%2e%2e//evil.com"],
    ["relative path", "precios"],
    ["empty", ""],
    ["malformed escape", "/%E0%A4%A"],
    ["too long", `/${"a".repeat(RETURN_PATH_MAX)}`],
  ])("refuses %s", (_, value) => {
    expect(safeReturnPath(value)).toBe(DEFAULT_RETURN_PATH);
  });

  it("checks the path the URL parser made, not only the one it was given", () => {
    // Found by the property below: the encoded dot segment goes, '%2F' then decodes to '//'.
    expect(safeReturnPath("/%2e/%2Fevil.com", "/atras")).toBe("/atras");
    expect(safeReturnPath("/%2e/perfil", "/atras")).toBe("/perfil");
  });

  it("falls back for anything but a string, to the given fallback", () => {
    for (const value of [null, undefined, 42, ["/perfil"], { path: "/perfil" }])
      expect(safeReturnPath(value)).toBe(DEFAULT_RETURN_PATH);
    expect(safeReturnPath("//evil.com", "/mi-cuenta")).toBe("/mi-cuenta");
  });

  it("answers, for any text, a path that stays on this site", () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: "binary", maxLength: 80 }),
      fc
        .array(
          fc.constantFrom("/", "\\", "%2F", "%5C", "%2f", ".", "..", "%2e", ":", "\t", "\r\n", "@"),
          { maxLength: 12 },
        )
        .chain((parts) =>
          fc.constantFrom(...[`${parts.join("")}evil.com`, `/${parts.join("")}evil.com`]),
        ),
      fc.webUrl(),
    );
    fc.assert(
      fc.property(hostile, (value) => {
        const path = safeReturnPath(value);
        return (
          path.startsWith("/") &&
          path[1] !== "/" &&
          path[1] !== "\\" &&
          // eslint-disable-next-line no-control-regex -- no control character gets through
          !/[\u0000-\u001f\u007f-\u009f\\]/.test(path) &&
          path.length <= RETURN_PATH_MAX &&
          landsOnThisSite(path) &&
          // What it lets through, it lets through unchanged when asked again.
          safeReturnPath(path) === path
        );
      }),
      { numRuns: 500 },
    );
  }, 20_000);

  it("keeps any ordinary path of this site", () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,20}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join("/")}`;
        expect(safeReturnPath(path)).toBe(path);
      }),
    );
  });
});

describe("the return path in a URL", () => {
  it("travels encoded in 'volver' and comes back as it was", () => {
    const to = withReturnPath("/login-cliente", "/precios?comprar=ia#ia");
    expect(to).toBe("/login-cliente?volver=%2Fprecios%3Fcomprar%3Dia%23ia");
    expect(returnPathOf(`${SITE}${to}`)).toBe("/precios?comprar=ia#ia");
    expect(withReturnPath("/registro?x=1", "/perfil")).toBe("/registro?x=1&volver=%2Fperfil");
    expect(withReturnPath("/registro", null)).toBe("/registro");
  });

  it("is absent when missing or unsafe", () => {
    expect(returnPathOf(`${SITE}/login-cliente`)).toBeNull();
    expect(returnPathOf(`${SITE}/login-cliente?volver=%2F%2Fevil.example`)).toBeNull();
    expect(returnPathOf(`${SITE}/login-cliente?volver=https%3A%2F%2Fevil.example`)).toBeNull();
  });
});
