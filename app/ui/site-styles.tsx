import { createContext, useContext } from "react";

/**
 * The site's whole stylesheet, inlined into every document by the server: the first paint
 * needs no second request. The browser keeps the text the server wrote, which the client
 * reads back once so every later render (and a remount) writes the very same text.
 */
const SiteStylesContext = createContext<string | null>(null);

export const SiteStylesProvider = SiteStylesContext.Provider;

const STYLE_ELEMENT_ID = "site-styles";

const stylesFromServer =
  typeof document === "undefined"
    ? ""
    : (document.getElementById(STYLE_ELEMENT_ID)?.textContent ?? "");

export function SiteStyles() {
  const css = useContext(SiteStylesContext) ?? stylesFromServer;
  return <style id={STYLE_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
