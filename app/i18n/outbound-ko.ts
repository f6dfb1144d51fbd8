/**
 * Korean words for an address the server refuses to connect to (domain/outbound-address.ts), shared by the camera
 * form and the alert settings' webhook field; outbound-en.ts is its twin.
 */
export const outboundErrorsKo = {
  host_unresolved: "주소의 호스트를 찾을 수 없습니다.",
  address_metadata: "클라우드 메타데이터 주소는 쓸 수 없습니다.",
  address_loopback: "서버 자신(루프백) 주소는 쓸 수 없습니다.",
  address_link_local: "링크 로컬 주소는 쓸 수 없습니다.",
  address_unspecified: "지정되지 않은 주소(0.0.0.0, ::)는 쓸 수 없습니다.",
  address_multicast: "멀티캐스트 주소는 쓸 수 없습니다.",
  address_cgnat: "통신사 NAT 대역(100.64.0.0/10) 주소는 쓸 수 없습니다.",
  address_reserved: "예약된 주소는 쓸 수 없습니다.",
  address_private: "사설망 주소는 운영자가 허용한 대역(CCTV_ALLOWED_NETS)만 쓸 수 있습니다.",
};
