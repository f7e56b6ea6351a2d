import { createContext, useContext } from "react";

/** The CSP nonce of the current response; empty in the browser, where scripts already ran. */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
