import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customerSignIn, signUp } from "~/features/accounts/account-actions.server";
import { requireCustomer } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import { users } from "~/platform/db/schema";
import { loader as loginLoader } from "~/routes/login-cliente";
import { loader as verifyLoader } from "~/routes/verificar-email";
import { formPost, signedInCustomer } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();
const password = "contraseña-de-vuelta-7";

const get = (path: string, cookie = "") =>
  new Request(`${getConfig().siteUrl}${path}`, { headers: { Cookie: cookie } });

/** The Location of a response returned or thrown. */
async function locationOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    const answer = await run();
    return answer instanceof Response ? answer.headers.get("Location") : null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("Location");
    throw thrown;
  }
}

const cookiesOf = (response: Response) =>
  response.headers.getSetCookie().map((value) => value.split(";")[0]!);

/** Signs up through the real action (from `/registro<query>`) and confirms the address. */
async function verifiedCustomer(email: string, query = "") {
  const signedUp = (await signUp({
    request: formPost(`/registro${query}`, { email, password, confirmPassword: password }),
    clientAddress: "192.0.2.70",
  })) as Response;
  await database.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
  return { returnCookie: cookiesOf(signedUp).find((value) => value.startsWith("vd_return_to=")) };
}

const signIn = (email: string, query = "", cookie = "") =>
  customerSignIn({
    request: formPost(`/login-cliente${query}`, { email, password }, cookie),
    clientAddress: "192.0.2.71",
  }) as Promise<Response>;

describe("a guarded page", () => {
  it("sends an anonymous visitor to the login with the page and its query to come back to", async () => {
    expect(await locationOf(() => requireCustomer(get("/perfil")))).toBe(
      "/login-cliente?volver=%2Fperfil",
    );
    expect(await locationOf(() => requireCustomer(get("/mi-cuenta?tab=compras")))).toBe(
      "/login-cliente?volver=%2Fmi-cuenta%3Ftab%3Dcompras",
    );
  });

  it("sends a post to the plain login: its address takes no GET", async () => {
    const post = new Request(`${getConfig().siteUrl}/mi-cuenta/eliminar`, { method: "POST" });
    expect(await locationOf(() => requireCustomer(post))).toBe("/login-cliente");
  });
});

describe("the customer login", () => {
  it("goes back to the page in ?volver=, and to /precios without one", async () => {
    await verifiedCustomer("vuelve@example.com");
    expect((await signIn("vuelve@example.com", "?volver=%2Fperfil")).headers.get("Location")).toBe(
      "/perfil",
    );
    expect((await signIn("vuelve@example.com")).headers.get("Location")).toBe("/precios");
  });

  it.each([
    ["protocol-relative", "//evil.example"],
    ["encoded slashes", "/%2F%2Fevil.example"],
    ["encoded backslash", "%2F%5Cevil.example"],
    ["another site", "https://evil.example/precios"],
    ["javascript:", "javascript:alert(1)"],
    ["header splitting", "/precios%0D%0ASet-Cookie:%20x=1"],
    ["very long", `/${"a".repeat(600)}`],
  ])("never follows a ?volver= off this site (%s)", async (label, hostile) => {
    const email = `hostil-${label.replaceAll(/\W/g, "-")}@example.com`;
    await verifiedCustomer(email);
    const query = `?volver=${encodeURIComponent(hostile)}`;
    expect((await signIn(email, query)).headers.get("Location")).toBe("/precios");
  });

  it("sends a signed-in visitor straight to the page in ?volver=", async () => {
    const { cookie } = await signedInCustomer("ya-dentro@example.com");
    expect(
      await locationOf(() =>
        loginLoader({ request: get("/login-cliente?volver=%2Fperfil", cookie) } as never),
      ),
    ).toBe("/perfil");
    expect(
      await locationOf(() =>
        loginLoader({ request: get("/login-cliente?volver=%2F%2Fevil.example", cookie) } as never),
      ),
    ).toBe("/precios");
  });
});

describe("sign-up keeps the chosen page across the verification mail", () => {
  const chosen = "/precios?comprar=ciberseguridad#ciberseguridad";
  const choosing = `?volver=${encodeURIComponent(chosen)}`;

  it("the confirmed /verificar-email goes to it instead of Mi Cuenta, once", async () => {
    const email = "elige@example.com";
    const { returnCookie: kept } = await verifiedCustomer(email, choosing);
    expect(kept).toMatch(/^vd_return_to=.+/);
    // The mailed link signs this browser in; a signed-in cookie stands for it here.
    const session = cookiesOf(await signIn(email, "?volver=%2Fperfil")).find((value) =>
      value.includes("session_token="),
    )!;
    const first = (await verifyLoader({
      request: get("/verificar-email", `${session}; ${kept}`),
    } as never)) as unknown as { data: { state: string; next: string | null }; init: ResponseInit };
    expect(first.data).toMatchObject({ state: "verified", next: chosen });
    expect(new Headers(first.init.headers).getSetCookie().join("\n")).toMatch(/vd_return_to=;/);

    const later = (await verifyLoader({
      request: get("/verificar-email", session),
    } as never)) as unknown as { data: { next: string | null } };
    expect(later.data.next).toBeNull();
  });

  it("a later login without ?volver= (the link opened in another browser) goes to it", async () => {
    const email = "otro-navegador@example.com";
    const { returnCookie: kept } = await verifiedCustomer(email, choosing);
    const signedIn = await signIn(email, "", kept);
    expect(signedIn.headers.get("Location")).toBe(chosen);
    expect(signedIn.headers.getSetCookie().join("\n")).toMatch(/vd_return_to=;/);
  });

  it("a sign-up without a chosen page forgets an older one", async () => {
    const { returnCookie } = await verifiedCustomer("sin-eleccion@example.com");
    expect(returnCookie).toBe("vd_return_to=");
  });
});
