/**
 * The fixed guest credentials (SPEC §1): a read-only demo member that anybody may use.
 * They are public on purpose; the API refuses every write from this member.
 */
export const GUEST_ID = "guest";
export const GUEST_PASSWORD = "guest-demo-2026";
