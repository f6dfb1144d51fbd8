import type { Sessions } from "./auth/sessions";
import type { TokenSigner } from "./auth/tokens";
import type { Store } from "./store/db";

/** What every route module of the API gets: the store and the auth services. */
export interface ApiContext {
  store: Store;
  signer: TokenSigner;
  sessions: Sessions;
  log: (msg: string, extra?: unknown) => void;
}
