/**
 * The CSP nonce of this response (app/csp.server.ts), for the inline scripts Remix renders. On the
 * server it comes from the load context through entry.server.tsx; in the browser it is empty (browsers
 * hide a nonce from the page once it has been used).
 */
import { createContext, useContext } from "react";

const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
