import type { DeviceTokens } from "./auth/device-token";
import type { Sessions } from "./auth/sessions";
import type { TokenSigner } from "./auth/tokens";
import type { OutboundAddressRule } from "./net/outbound-address";
import type { NameOrder } from "../domain/name-order";
import type { Store } from "./store/db";

/** What every route module of the API gets: the store and the auth services. */
export interface ApiContext {
  store: Store;
  signer: TokenSigner;
  sessions: Sessions;
  /** Device cookies of the login throttle. */
  devices: DeviceTokens;
  log: (msg: string, extra?: unknown) => void;
  /** Where the server may connect on a member's behalf (camera streams, alert webhooks). */
  outbound: OutboundAddressRule;
  /** Plant names in collation order for this server's lifetime: lists of plants sort by rank (domain/name-order.ts). */
  plantNames: NameOrder;
}
