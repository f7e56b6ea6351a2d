import { createElement } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  StaticRouterProvider,
} from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getViewer } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import type { DatabaseHandle } from "~/platform/db/client.server";
import { installDatabase } from "~/platform/db/database.server";
import * as root from "~/root";
import * as account from "~/routes/mi-cuenta";
import { signedInCustomer } from "../support/customer-session";
import { createTestDatabase } from "../support/test-database";

// The database is closed in the middle of this file, so it is opened here, not by the shared
// setup (whose clean-up would close it a second time).
let handle: DatabaseHandle;
let cookie: string;

beforeAll(async () => {
  handle = (await createTestDatabase()).handle;
  installDatabase(handle);
  (globalThis as { __auth?: unknown }).__auth = undefined;
  ({ cookie } = await signedInCustomer("en-mantenimiento@example.com"));
  // The database goes away while the customer's session cookie is still in the browser.
  await handle.close();
});

afterAll(() => {
  installDatabase(undefined);
  (globalThis as { __auth?: unknown }).__auth = undefined;
});

const pageRequest = (path: string) =>
  new Request(`${getConfig().siteUrl}${path}`, { headers: { Cookie: cookie } });

/** What a loader threw: its status and Retry-After, or the error itself when not an answer. */
async function thrownBy(load: () => Promise<unknown>) {
  try {
    await load();
  } catch (error) {
    if (
      isRouteErrorResponse(error) ||
      (error as { type?: string })?.type === "DataWithResponseInit"
    ) {
      const init = (error as { init?: ResponseInit }).init;
      return { status: init?.status, retryAfter: new Headers(init?.headers).get("Retry-After") };
    }
    return error;
  }
  return "no error";
}

describe("signed-in pages while the database is away", () => {
  it("throw the maintenance answer from the session lookup: 503 with Retry-After, not a sign-out", async () => {
    expect(await thrownBy(() => getViewer(pageRequest("/mi-cuenta")))).toEqual({
      status: 503,
      retryAfter: "30",
    });
    const args = { request: pageRequest("/mi-cuenta"), params: {}, context: {} };
    expect(await thrownBy(() => account.loader(args as never))).toEqual({
      status: 503,
      retryAfter: "30",
    });
  });

  it("render GET /mi-cuenta as the Spanish maintenance page with status 503", async () => {
    const routes = [
      {
        id: "root",
        path: "/",
        loader: root.loader as never,
        ErrorBoundary: root.ErrorBoundary,
        children: [
          {
            id: "mi-cuenta",
            path: "mi-cuenta",
            loader: account.loader as never,
            Component: () => null,
          },
        ],
      },
    ];
    const { query, dataRoutes } = createStaticHandler(routes);
    const context = await query(pageRequest("/mi-cuenta"));
    if (context instanceof Response)
      throw new Error(`redirected to ${context.headers.get("Location")}`);
    expect(context.statusCode).toBe(503);
    const html = renderToString(
      createElement(StaticRouterProvider, {
        router: createStaticRouter(dataRoutes, context),
        context,
      }),
    );
    expect(html).toContain("Estamos en mantenimiento");
    expect(html).not.toContain("Algo ha salido mal");
  });
});
