import { expect, openPage, test } from "./fixtures";
import { signUp, uniqueEmail } from "./accounts-helpers";
import { mailboxEntries } from "./mailbox";

// The server renders in UTC; this browser lives five or six hours behind it.
test.use({ timezoneId: "America/New_York" });

test("a browser in another time zone hydrates dated pages without a mismatch, in Spain's time", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  const email = uniqueEmail("zona");
  await signUp(page, email, "contraseña-de-zona-1");
  await expect(page).toHaveURL(/\/verificar-email$/);

  await openPage(page, "/dev/correo");
  const entry = mailboxEntries(page, email).first();
  await expect(entry).toBeVisible();
  const time = entry.locator("time");
  const instant = new Date((await time.getAttribute("datetime"))!);
  const inMadrid = new Intl.DateTimeFormat("es-ES", {
    dateStyle: "short",
    timeStyle: "medium",
    timeZone: "Europe/Madrid",
  }).format(instant);
  await expect(time).toHaveText(inMadrid);
  expect(problems).toEqual([]);
});
