/** Account and members (SPEC §7): login, token renewal, logout, own profile, id check. */
import { Router, type Request } from "express";
import { LoginBody, MemberProfileFields, PasswordChangeBody } from "../../domain/member-form";
import { MEMBER_ID_PATTERN, passwordProblem } from "../../domain/password-policy";
import { bearerToken, currentMember, requireSettled } from "../auth/guards";
import { clearFailures, pendingWait, recordFailure } from "../auth/login-throttle-store";
import { decoyHash, hashPassword, verifyPassword } from "../auth/password";
import type { ApiContext } from "../context";
import { ApiError, badRequest, forbidden, handle, notFound, parse, unauthorized } from "../http";
import { changeOwnProfile, findMember, memberExists, memberProfile, replacePassword } from "../store/members";

/** Routes reachable without an access token. */
export function publicMemberRoutes(ctx: ApiContext): Router {
  const r = Router();
  const { store, sessions } = ctx;

  r.post(
    "/member/login",
    handle(async (req, res) => {
      const { id, password, deviceToken } = parse(LoginBody, req.body);
      // A browser that logged in as this member before is throttled on its own, not with the strangers
      // guessing this id: they cannot keep the owner waiting.
      const device = ctx.devices.verify(id, deviceToken);
      const keys = [device ? `dev:${device}` : `id:${id.toLowerCase()}`, `ip:${req.ip}`];
      const wait = await pendingWait(store.db, keys);
      if (wait > 0) {
        const retryAfter = Math.ceil(wait / 1000);
        throw new ApiError(429, "too_many_attempts", { retryAfter }, { "Retry-After": String(retryAfter) });
      }
      const member = await findMember(store.db, id);
      const ok =
        member && member.use_yn === 1
          ? await verifyPassword(member.password_hash, password)
          : (await verifyPassword(await decoyHash(), password), false);
      if (!ok || !member) {
        await recordFailure(store.db, keys);
        // Same answer for an unknown id and a wrong password (SPEC §8 login_failure).
        throw new ApiError(401, "login_failure");
      }
      await clearFailures(store.db, keys);
      res.status(200);
      return {
        ...(await sessions.start(member, req.get("user-agent"))),
        deviceToken: device ? deviceToken : ctx.devices.issue(member.id),
      };
    }),
  );

  const refresh = (extend: boolean) =>
    handle(async (req: Request) => {
      const token = bearerToken(req) ?? (typeof req.body?.refreshToken === "string" ? req.body.refreshToken : null);
      if (!token) throw unauthorized();
      const tokens = await sessions.rotate(token, { extend });
      if (!tokens) throw new ApiError(401, "renewal_token_failure!", { isLogin: false });
      return tokens;
    });
  r.put("/member/refresh/accessToken", refresh(false));
  r.put("/member/refresh/refreshToken", refresh(true));
  return r;
}

/** Routes that need a valid access token (mounted behind authenticate). */
export function memberRoutes(ctx: ApiContext): Router {
  const r = Router();
  const { store, sessions } = ctx;

  r.get(
    "/member/isAuth",
    handle((req) => ({ isLogin: true, ...currentMember(req) })),
  );

  const logout = handle(async (req) => {
    await sessions.revoke(currentMember(req).sid, "logout");
    return { isLogin: false };
  });
  r.get("/member/logout", logout);
  r.post("/member/logout", logout);

  r.get(
    "/member",
    handle(async (req) => {
      const member = await findMember(store.db, currentMember(req).id);
      if (!member) throw notFound();
      return { member: await memberProfile(store.db, member) };
    }),
  );

  /** The member's own profile (name, phone, email); answers the profile and tokens carrying the new claims. */
  r.put(
    "/member",
    handle(async (req) => {
      const me = requireSettled(req);
      if (me.readOnly === 1) throw forbidden("read_only_member");
      const body = parse(MemberProfileFields, req.body ?? {});
      const now = Date.now();
      await changeOwnProfile(store.db, me.id, { name: body.name, phone: body.phone ?? null, email: body.email ?? null }, now);
      const member = await findMember(store.db, me.id);
      if (!member) throw notFound();
      const tokens = await sessions.reissue(member, me.sid, now);
      if (!tokens) throw unauthorized();
      return { member: await memberProfile(store.db, member), ...tokens };
    }),
  );

  r.get(
    "/member/check/id/:id",
    handle(async (req) => {
      requireSettled(req);
      const id = String(req.params.id ?? "");
      const valid = MEMBER_ID_PATTERN.test(id);
      return { id, valid, exists: valid ? await memberExists(store.db, id) : false };
    }),
  );

  /** The member's own password change; clears pwd_yn and returns fresh tokens. */
  r.put(
    "/member/:id/password",
    handle(async (req) => {
      const me = currentMember(req);
      if (req.params.id !== me.id) throw forbidden("own_password_only");
      if (me.readOnly === 1) throw forbidden("read_only_member");
      const body = parse(PasswordChangeBody, req.body);
      const member = await findMember(store.db, me.id);
      if (!member) throw notFound();
      if (!(await verifyPassword(member.password_hash, body.currentPassword))) {
        throw badRequest("invalid_input", { currentPassword: "wrong_password" });
      }
      const problem = passwordProblem(body.newPassword, { id: member.id, current: body.currentPassword });
      if (problem) throw badRequest("invalid_input", { newPassword: problem });
      const now = Date.now();
      // Other sessions of this member end; this one continues with a token that no longer demands a change.
      const hash = await hashPassword(body.newPassword);
      await replacePassword(store.db, member.id, hash, { mustChange: false, reason: "password_changed", keepSid: me.sid }, now);
      const tokens = await sessions.reissue({ ...member, pwd_yn: 0 }, me.sid, now);
      if (!tokens) throw unauthorized();
      return tokens;
    }),
  );

  return r;
}
