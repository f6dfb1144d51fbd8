/**
 * Member fields as the API accepts them and the admin forms send them, validated by one schema
 * on both sides (the API is authoritative; the portal runs the same schema before the round trip).
 * Issue messages are error codes; the portal turns them into text through its message catalogue.
 */
import { z } from "zod";
import { AUTH_LEVELS } from "./admin-levels";
import { MEMBER_ID_PATTERN, passwordProblem } from "./password-policy";
import { SERVICE_BITS, SERVICE_MASK_MAX } from "./service-bits";

export const MEMBER_NAME_MAX = 50;
export const MEMBER_EMAIL_MAX = 120;
/** Digits with the usual separators: 010-1234-5678, +82 10 1234 5678, (02) 123-4567. */
export const MEMBER_PHONE_PATTERN = /^\+?[0-9][0-9 ()-]{5,22}[0-9]$/;

/** 0/1 flags: accepts 0/1, booleans and the strings a checkbox or a JSON client sends. */
export function toFlag(v: unknown): unknown {
  if (v === true || v === 1 || v === "1" || v === "on" || v === "true" || v === "Y" || v === "y") return 1;
  if (v === false || v === 0 || v === "0" || v === "off" || v === "false" || v === "" || v === "N" || v === "n") return 0;
  return v;
}
export const flag = z.preprocess(toFlag, z.union([z.literal(0), z.literal(1)], { errorMap: () => ({ message: "invalid" }) }));

/** Integers from JSON numbers or form strings; "" and absent become undefined (→ "required"). */
export function toInt(v: unknown): unknown {
  if (typeof v === "string") {
    const s = v.trim();
    if (s === "") return undefined;
    return /^-?\d+$/.test(s) ? Number(s) : v;
  }
  return v;
}
const int = (code = "invalid") =>
  z.preprocess(toInt, z.number({ required_error: "required", invalid_type_error: code }).int(code));

const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v);

export const memberName = z
  .string({ required_error: "required", invalid_type_error: "required" })
  .trim()
  .min(1, "required")
  .max(MEMBER_NAME_MAX, "too_long");
export const memberPhone = z.preprocess(
  blankToNull,
  z
    .string({ invalid_type_error: "invalid_phone" })
    .max(24, "invalid_phone")
    .regex(MEMBER_PHONE_PATTERN, "invalid_phone")
    .nullable(),
);
export const memberEmail = z.preprocess(
  blankToNull,
  z.string({ invalid_type_error: "invalid_email" }).max(MEMBER_EMAIL_MAX, "too_long").email("invalid_email").nullable(),
);
export const memberId = z
  .string({ required_error: "required", invalid_type_error: "required" })
  .trim()
  .min(1, "required")
  .regex(MEMBER_ID_PATTERN, "invalid_id");
export const authLevel = int("invalid_level").refine((n) => (AUTH_LEVELS as readonly number[]).includes(n), "invalid_level");
export const serviceMaskField = int().refine((n) => n >= 0 && n <= SERVICE_MASK_MAX, "invalid");
export const nodeSeqField = int("required");

/** The member's own profile (/modify, PUT /api/member). */
export const MemberProfileFields = z.object({
  name: memberName,
  phone: memberPhone.optional(),
  email: memberEmail.optional(),
});
export type MemberProfileInput = z.infer<typeof MemberProfileFields>;

/** What an admin edits on a member (PUT /api/member/{id}; every field optional there). */
export const MemberEditFields = MemberProfileFields.extend({
  auth: authLevel,
  service: serviceMaskField,
  node_seq: nodeSeqField,
  use_yn: flag,
  diagram: flag,
  cctv: flag,
  page: flag,
});
export type MemberEditInput = z.infer<typeof MemberEditFields>;
/** What PUT /api/member/{id} validates: the edit fields, each one optional (only those sent change). */
export const MemberPatchFields = MemberEditFields.partial();

/** A new member (POST /api/member): the edit fields plus id and an initial password. */
export const MemberCreateFields = MemberEditFields.extend({
  id: memberId,
  // The rules that need no other field are checked here, so they show with every other field error.
  password: z.string({ required_error: "required", invalid_type_error: "required" }).superRefine((pw, ctx) => {
    const problem = passwordProblem(pw);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  }),
  /** 1 (default): the member must change the initial password at the first login. */
  pwd_yn: flag.optional(),
}).superRefine((v, ctx) => {
  if (passwordProblem(v.password, { id: v.id }) === "same_as_id") {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password"], message: "same_as_id" });
  }
});
export type MemberCreateInput = z.infer<typeof MemberCreateFields>;

/** A temporary password set by an admin (the member must change it at next login). */
export function passwordResetFields(memberId: string) {
  return z.object({
    password: z.string({ required_error: "required", invalid_type_error: "required" }).superRefine((pw, ctx) => {
      const problem = passwordProblem(pw, { id: memberId });
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    }),
  });
}

/** Service bits an admin can switch, one checkbox each (SPEC §6; diagnoseMenu shares bit 3). */
export const SERVICE_CHOICES = (Object.entries(SERVICE_BITS) as Array<[keyof typeof SERVICE_BITS, number]>)
  .filter(([key, bit]) => bit >= 0 && key !== "diagnoseMenu")
  .map(([key, bit]) => ({ key, bit }));
/** Bits of the 16-bit mask that no checkbox owns; an edit keeps them as they were. */
export const SERVICE_KNOWN_MASK = SERVICE_CHOICES.reduce((m, c) => m | (1 << c.bit), 0);

/** The mask a set of checked bits gives, keeping the unknown bits of the previous mask. */
export function serviceFromBits(bits: readonly unknown[], previous = 0): number {
  let mask = previous & ~SERVICE_KNOWN_MASK & SERVICE_MASK_MAX;
  for (const b of bits) {
    const n = Number(b);
    if (SERVICE_CHOICES.some((c) => c.bit === n)) mask |= 1 << n;
  }
  return mask;
}

/** Filters of the member list (GET /api/member/node/list): all optional, the portal keeps them in the URL. */
export const MemberListQuery = z.object({
  seq: z.preprocess(toInt, z.number().int().positive().optional()).catch(undefined),
  auth: z.preprocess(toInt, z.number().int().min(0).max(10).optional()).catch(undefined),
  use: z.preprocess(toInt, z.union([z.literal(0), z.literal(1)]).optional()).catch(undefined),
  plant: z.string().trim().max(64).optional().catch(undefined),
  q: z.string().trim().max(50).optional().catch(undefined),
  page: z.preprocess(toInt, z.number().int().min(1).max(10_000).default(1)).catch(1),
  size: z.preprocess(toInt, z.number().int().min(1).max(100).default(20)).catch(20),
});
export type MemberListFilter = z.infer<typeof MemberListQuery>;

/** The admin list and detail answers are payloads of the contract (domain/contract/admin.ts). */
export type { MemberAdminRow, MemberDetailResponse, MemberListResponse, MemberPlantLink } from "./contract/admin";

/** POST /api/member/login. */
export const LoginBody = z.object({
  id: z.string().trim().min(1, "required").max(64),
  password: z.string().min(1, "required").max(256),
  /** The device token a previous successful login gave this browser (see api/auth/device-token.ts). */
  deviceToken: z.string().max(128).optional(),
});

/** PUT /api/member/{id}/password: the member's own password change (the rules are checked by the route with the id). */
export const PasswordChangeBody = z.object({
  currentPassword: z.string().min(1, "required").max(256),
  newPassword: z.string().max(256),
});
