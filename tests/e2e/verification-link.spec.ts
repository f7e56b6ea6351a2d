import { expect, test } from "./fixtures";
import { nav, signIn, signUp, toast, uniqueEmail } from "./accounts-helpers";
import { linksOfLatestMail } from "./mailbox";

test("a verification link opened in another browser confirms the address but signs no one in", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("otro-dispositivo");
  const password = "contraseña-del-movil-8";
  await signUp(page, email, password);
  await expect(page).toHaveURL(/\/verificar-email$/);
  const links = await linksOfLatestMail(page, email, /^Confirma tu email/);
  const link = links.find((href) => href.includes("/api/auth/verify-email"))!;

  // Another browser (a phone, or someone the link was sent to) has no pending-e-mail cookie.
  const other = await browser.newContext();
  const phone = await other.newPage();
  await phone.goto(link);
  await expect(phone).toHaveURL(/\/login-cliente$/);
  await expect(toast(phone, "Email verificado")).toBeVisible();
  await expect(toast(phone, "Inicia sesión para continuar")).toBeVisible();
  await expect(nav(phone).getByRole("link", { name: "Entrar" })).toBeVisible();
  expect((await other.cookies()).some((cookie) => cookie.name.endsWith("session_token"))).toBe(
    false,
  );

  // The address is confirmed: the password now opens the account there.
  await signIn(phone, email, password);
  await expect(phone).toHaveURL(/\/precios$/);
  await other.close();
});
