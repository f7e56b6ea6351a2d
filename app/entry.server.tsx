import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { deferHydration } from "~/platform/http/deferred-hydration.server";
import { isLightPage, withoutNonce } from "~/platform/http/light-page.server";
import {
  MAINTENANCE_RETRY_AFTER_SECONDS,
  MAINTENANCE_STATUS,
} from "~/platform/http/maintenance.server";
import { NonceProvider } from "~/platform/security/nonce";
import { SiteStylesProvider } from "~/ui/site-styles";
import siteStyles from "./app.css?inline";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Pages here do not stream Suspense boundaries, so the whole document is rendered before it
  // is sent: one buffer is compressed in one go instead of dozens of small chunks.
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <SiteStylesProvider value={siteStyles}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </SiteStylesProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          const chunks: Buffer[] = [];
          const body = new PassThrough();
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("end", () => {
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            // A thrown answer's own headers do not reach the document: the maintenance page's
            // Retry-After is set here.
            if (responseStatusCode === MAINTENANCE_STATUS && !responseHeaders.has("Retry-After"))
              responseHeaders.set("Retry-After", String(MAINTENANCE_RETRY_AFTER_SECONDS));
            const html = Buffer.concat(chunks).toString("utf8");
            const page = isLightPage(html)
              ? withoutNonce(html, nonce)
              : import.meta.env.PROD
                ? deferHydration(html, nonce)
                : html;
            resolve(
              new Response(page, {
                headers: responseHeaders,
                status: responseStatusCode,
              }),
            );
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are reported here; before it, onShellError handles them.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}
