/** React Router's inline context: in every page React hydrates, in no light page. */
const ROUTER_CONTEXT = "window.__reactRouterContext";

export function isLightPage(html: string): boolean {
  return !html.includes(ROUTER_CONTEXT);
}

/**
 * A light page runs no inline script, so it needs no nonce: without one its bytes are the same
 * for every visitor and every instance, and a shared cache keeps one copy (decision 038).
 */
export function withoutNonce(html: string, nonce: string | undefined): string {
  return nonce ? html.replaceAll(` nonce="${nonce}"`, "") : html;
}
