/** English twin of outbound-ko.ts: an address the server refuses to connect to. */
import type { outboundErrorsKo } from "./outbound-ko";

export const outboundErrorsEn: typeof outboundErrorsKo = {
  host_unresolved: "The address's host cannot be found.",
  address_metadata: "Cloud metadata addresses cannot be used.",
  address_loopback: "The server's own (loopback) addresses cannot be used.",
  address_link_local: "Link-local addresses cannot be used.",
  address_unspecified: "Unspecified addresses (0.0.0.0, ::) cannot be used.",
  address_multicast: "Multicast addresses cannot be used.",
  address_cgnat: "Carrier-grade NAT addresses (100.64.0.0/10) cannot be used.",
  address_reserved: "Reserved addresses cannot be used.",
  address_private: "Private addresses only in networks the operator allows (CCTV_ALLOWED_NETS).",
};
