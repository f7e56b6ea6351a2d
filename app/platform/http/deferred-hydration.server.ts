/**
 * Lets the browser paint the server's HTML before it downloads any JavaScript.
 *
 * React Router preloads every module of the page in <head> and imports them from an inline
 * module script. Both start downloads while the page is still being parsed, and on a slow
 * connection those downloads compete with the first paint. Here the preloads are taken out
 * and the module script is held (an inert type); a small inline script adds both back once
 * the browser reports its first paint. Hydration starts a little later; the page is server
 * rendered, and its links and forms work before that.
 */
import { CLIENT_CHUNKS } from "./client-chunks";
import { isLightPage } from "./light-page.server";

const HELD_MODULE_TYPE = "text/x-held-module";
const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;
const HREF = /\bhref="([^"]+)"/;
const MODULE_SCRIPT = /<script\b([^>]*?)\stype="module"([^>]*)>/g;
/** Start after the first paint; the timer covers pages that do not paint (a hidden tab). */
const FALLBACK_MS = 500;

/** The shared chunks among the preloads, in the order to evaluate them. */
function sharedChunksInOrder(preloads: string[]): string[] {
  return CLIENT_CHUNKS.flatMap((name) =>
    preloads.filter((href) => href.split("/").pop()!.startsWith(`${name}-`)),
  );
}

function bootScript(preloads: string[]): string {
  // Each shared chunk is imported (evaluated) in its own task before the page's modules, which
  // then find them ready: several short tasks instead of one long one. Tasks are yielded with a
  // MessageChannel, not a timer: browser tests that stop the clock still see the page hydrate.
  return `(()=>{let started=false;const nextTask=()=>new Promise((resolve)=>{const channel=new MessageChannel();channel.port1.onmessage=resolve;channel.port2.postMessage(0)});const start=async()=>{if(started)return;started=true;void nextTask().then(preload);for(const href of ${JSON.stringify(sharedChunksInOrder(preloads))}){await import(href);await nextTask()}for(const held of document.querySelectorAll('script[type="${HELD_MODULE_TYPE}"]')){const script=document.createElement("script");script.type="module";script.nonce=held.nonce;script.textContent=held.textContent;document.head.append(script)}};const preload=()=>{for(const href of ${JSON.stringify(preloads)}){const link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.append(link)}};try{new PerformanceObserver((_list,observer)=>{observer.disconnect();start()}).observe({type:"paint",buffered:true})}catch{}setTimeout(start,${FALLBACK_MS})})()`;
}

export function deferHydration(html: string, nonce: string | undefined): string {
  // A light page (decision 038) has its one small script and nothing of React Router's to hold.
  if (isLightPage(html)) return html;
  const preloads: string[] = [];
  const withoutPreloads = html.replace(MODULE_PRELOAD, (tag) => {
    const href = HREF.exec(tag)?.[1];
    if (href) preloads.push(href);
    return "";
  });
  const held = withoutPreloads.replace(
    MODULE_SCRIPT,
    (_tag, before: string, after: string) =>
      `<script${before} type="${HELD_MODULE_TYPE}"${after.replace(/\sasync=""/, "")}>`,
  );
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  return held.replace(
    "</body>",
    `<script${nonceAttribute}>${bootScript(preloads)}</script></body>`,
  );
}
