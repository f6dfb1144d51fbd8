import { expect, submitLogin, test } from "./fixtures";
test("dbg", async ({ page, member, context }) => {
  test.skip(test.info().project.name !== "nojs");
  const m = await member({ pwd_yn: 1 });
  await page.goto("/login");
  await submitLogin(page, m.id, m.password);
  await expect(page).toHaveURL(/\/modify\?required=1$/);
  const res = await page.goto("/modify?required=1");
  const buf = await res!.body();
  const b = buf.indexOf(Buffer.from('aria-label="주 메'));
  console.log("HEX", b, buf.subarray(b, b + 40).toString("hex"), JSON.stringify(await res!.allHeaders()));
  const cookies = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  console.log("COOKIES", cookies.replace(/=[^;]{20,}/g, "=…"));
  const req = await res!.request().allHeaders();
  console.log("REQ", JSON.stringify(req));
});
