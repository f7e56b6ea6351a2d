import { describe, expect, it } from "vitest";
import { scriptHashes } from "./page-cache.server";
import { deferHydration } from "./deferred-hydration.server";

const document = `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/a.js" nonce="n1"/><link rel="modulepreload" href="/assets/b.js" nonce="n1"/><style id="site-styles">body{}</style></head><body><main>Hola</main><script nonce="n1">window.__reactRouterContext = {};</script><script nonce="n1" type="module" async="">import * as route0 from "/assets/root.js";
import("/assets/entry.js");</script></body></html>`;

describe("deferHydration", () => {
  const html = deferHydration(document, "n1");

  it("takes the module preloads out of the document", () => {
    expect(html).not.toMatch(/<link[^>]*rel="modulepreload"/);
  });

  it("holds the module script under an inert type, keeping its code and nonce", () => {
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain(
      '<script nonce="n1" type="text/x-held-module">import * as route0 from "/assets/root.js";',
    );
  });

  it("adds, with the nonce, a boot script that restores modules and preloads after the first paint", () => {
    const boot = /<script nonce="n1">(\(\(\)=>\{[\s\S]*?)<\/script><\/body>/.exec(html)?.[1];
    expect(boot).toBeDefined();
    expect(boot).toContain('["/assets/a.js","/assets/b.js"]');
    expect(boot).toContain(`observe({type:"paint",buffered:true})`);
    expect(boot).toContain('script[type="text/x-held-module"]');
  });

  it("evaluates the shared chunks first, one per task, in dependency order", () => {
    const withChunks = deferHydration(
      document.replace(
        '<link rel="modulepreload" href="/assets/a.js" nonce="n1"/>',
        '<link rel="modulepreload" href="/assets/forms-F1.js"/><link rel="modulepreload" href="/assets/framework-R2.js"/><link rel="modulepreload" href="/assets/site-S3.js"/>',
      ),
      "n1",
    );
    expect(withChunks).toContain(
      'for(const href of ["/assets/framework-R2.js","/assets/site-S3.js","/assets/forms-F1.js"]){await import(href);await nextTask()}',
    );
  });

  it("leaves other inline scripts as they are", () => {
    expect(html).toContain('<script nonce="n1">window.__reactRouterContext = {};</script>');
  });

  it("gives cached pages a hash for every inline script, the held module included", () => {
    const withoutNonce = deferHydration(document, undefined);
    expect(withoutNonce).toContain("<script>((");
    // The context, the held module and the boot script.
    expect(scriptHashes(withoutNonce)).toHaveLength(3);
  });

  it("does nothing to a document without modules", () => {
    const plain = "<html><body><p>Sin scripts</p></body></html>";
    expect(deferHydration(plain, "n1")).toBe(plain);
  });

  it("leaves a light page's one module script alone: nothing of React Router's to hold", () => {
    const light = `<html><head><script type="module" src="/assets/light-x.js"></script></head><body><p>Hola</p></body></html>`;
    expect(deferHydration(light, "n1")).toBe(light);
  });
});
