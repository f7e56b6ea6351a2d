import type { Browser, Page } from "@playwright/test";
import { createVerifiedCustomer, signedInAdminPage, toast } from "./accounts-helpers";
import { seriousViolations } from "./axe-helpers";
import { expect, openPage, rememberCookieChoice, test } from "./fixtures";

/**
 * Issue #28, item 4 (decision 054): 'Cambiar rol' in Usuarios asks first, naming the person and
 * the role in words and what the role may do: a modal dialog with JavaScript (focus inside,
 * Escape and 'Cancelar' leave the role as it was, the focus back on what opened it), a
 * confirmation page without. With ROLE_SCREENSHOTS set, each width leaves a screenshot there.
 */

/** A new verified customer called `name`, signed in in a browser of their own (then closed). */
async function namedCustomer(browser: Browser, baseURL: string, name: string) {
  const context = await browser.newContext();
  await rememberCookieChoice(context, "rejected");
  const page = await context.newPage();
  const customer = await createVerifiedCustomer(page);
  const saved = await page.request.post("/perfil", {
    form: { intent: "save", fullName: name, phone: "", company: "", bio: "" },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(saved.status(), "the profile's name saved").toBeLessThan(400);
  await context.close();
  return customer;
}

/** The Usuarios row of `email`, its 'Cambiar rol' form opened and `label` chosen. */
async function chooseRole(page: Page, email: string, label: string) {
  await openPage(page, `/admin?tab=usuarios&q=${encodeURIComponent(email)}`);
  const row = page.getByRole("table", { name: "Usuarios" }).locator("tbody tr");
  await expect(row).toHaveCount(1);
  await row.locator("summary", { hasText: "Cambiar rol" }).click();
  await row.getByLabel("Nuevo rol").selectOption({ label });
  return row;
}

const shots = process.env.ROLE_SCREENSHOTS;

for (const width of [390, 1280]) {
  test(`a role change asks first in a dialog that names the person and the role (${width} px)`, async ({
    browser,
    baseURL,
  }) => {
    const { email } = await namedCustomer(browser, baseURL!, "Ana López");
    const admin = await signedInAdminPage(browser);
    await admin.setViewportSize({ width, height: 844 });
    const row = await chooseRole(admin, email, "Administrador");
    const trigger = row.getByRole("button", { name: "Cambiar rol", exact: true });
    if (shots) {
      // The row's other action, open: 'Cerrar sesiones' (decision 063).
      await row.locator("summary", { hasText: "Cerrar sesiones" }).click();
      await admin.screenshot({ path: `${shots}/usuarios-fila-${width}.png`, fullPage: true });
      await row.locator("summary", { hasText: "Cerrar sesiones" }).click();
    }

    // The dialog: the question with name, e-mail and role, what the role may do; focus inside.
    await trigger.click();
    const dialog = admin.getByRole("dialog", {
      name: `¿Hacer a Ana López (${email}) Administrador?`,
    });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Podrá hacerlo todo en el panel");
    const cancel = dialog.getByRole("button", { name: "Cancelar" });
    await expect(cancel).toBeFocused();
    // Tab moves between its two buttons (the page behind is inert while it is open).
    await admin.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Hacer Administrador" })).toBeFocused();
    await admin.keyboard.press("Shift+Tab");
    await expect(cancel).toBeFocused();
    // No toast sits on the dialog while axe looks (the admin's sign-in leaves one).
    await expect(admin.locator("[data-toast]")).toHaveCount(0, { timeout: 10_000 });
    expect(await seriousViolations(admin)).toEqual([]);
    if (shots) await admin.screenshot({ path: `${shots}/rol-dialogo-${width}.png` });

    // Escape cancels: nothing changed, the focus back on the button that opened it.
    await admin.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(row).toHaveAttribute("data-role", "customer");

    // 'Cancelar' too.
    await trigger.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(row).toHaveAttribute("data-role", "customer");

    // Confirmed: the role given, said by a toast; the focus on the row's 'Cambiar rol'.
    await trigger.click();
    await dialog.getByRole("button", { name: "Hacer Administrador" }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(admin, "Rol actualizado")).toBeVisible();
    await expect(row).toHaveAttribute("data-role", "admin");
    await expect(row.locator("summary", { hasText: "Cambiar rol" })).toBeFocused();

    // Taking it away asks in its own words.
    await row.locator("summary", { hasText: "Cambiar rol" }).click();
    await row.getByLabel("Nuevo rol").selectOption({ label: "Cliente (sin rol del equipo)" });
    await trigger.click();
    const removal = admin.getByRole("dialog", {
      name: `¿Quitar a Ana López (${email}) el rol Administrador?`,
    });
    await expect(removal).toContainText("dejará de tener acceso al panel");
    await removal.getByRole("button", { name: "Quitar el rol" }).click();
    await expect(row).toHaveAttribute("data-role", "customer");
    await admin.context().close();
  });
}

test("without JavaScript the role form leads to a confirmation page, then back to the list", async ({
  browser,
  baseURL,
}) => {
  const { email } = await namedCustomer(browser, baseURL!, "Luis Pérez");
  // The admin's session, carried into a browser that runs no JavaScript.
  const signedIn = await signedInAdminPage(browser);
  const state = await signedIn.context().storageState();

  for (const width of [390, 1280]) {
    const context = await browser.newContext({
      baseURL,
      storageState: state,
      javaScriptEnabled: false,
      viewport: { width, height: 844 },
    });
    const page = await context.newPage();
    const list = `/admin?tab=usuarios&q=${encodeURIComponent(email)}`;
    await page.goto(list);
    const row = page.getByRole("table", { name: "Usuarios" }).locator("tbody tr");
    await row.locator("summary", { hasText: "Cambiar rol" }).click();
    await row.getByLabel("Nuevo rol").selectOption({ label: "Soporte" });
    await row.getByRole("button", { name: "Cambiar rol", exact: true }).click();

    await expect(page).toHaveURL(/\/admin\/usuarios\/[^/]+\/rol\?/);
    const questionText = `¿Hacer a Luis Pérez (${email}) Soporte?`;
    const question = page.getByRole("heading", { name: questionText });
    await expect(question).toBeVisible();
    await expect(page.getByText(/^Podrá atender consultas y tickets/)).toBeVisible();
    await expect(page.getByText("Rol actual: Cliente")).toBeVisible();
    // The dialog's order: 'Cancelar' first (in reading and in Tab order), then the change.
    await expect(
      page
        .locator("main")
        .locator("a, button")
        .filter({ hasText: /^(Cancelar|Hacer Soporte)$/ }),
    ).toHaveText(["Cancelar", "Hacer Soporte"]);
    // axe runs as a script: it checks the same page in the signed-in browser that runs them.
    await signedIn.setViewportSize({ width, height: 844 });
    await openPage(signedIn, new URL(page.url()).pathname + new URL(page.url()).search);
    await expect(signedIn.getByRole("heading", { name: questionText })).toBeVisible();
    expect(await seriousViolations(signedIn)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/rol-pagina-${width}.png`, fullPage: true });

    if (width === 390) {
      // 'Cancelar' goes back to the same list, nothing changed.
      await page.getByRole("link", { name: "Cancelar" }).click();
      await expect(page).toHaveURL((url) => url.searchParams.get("q") === email);
      await expect(row).toHaveAttribute("data-role", "customer");
    } else {
      await page.getByRole("button", { name: "Hacer Soporte" }).click();
      await expect(page).toHaveURL(
        (url) => url.pathname === "/admin" && url.searchParams.get("q") === email,
      );
      await expect(row).toHaveAttribute("data-role", "support");
      // The redirect's toast, drawn without script (text queries skip <noscript>).
      await expect(page.locator("[data-noscript-toast] p").first()).toHaveText("Rol actualizado");
    }
    await context.close();
  }
  await signedIn.context().close();
});
