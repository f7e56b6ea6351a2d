import { expect, test } from "./fixtures";

/**
 * Issue 39, item 1: the site opened at another address than SITE_URL (here 127.0.0.1 for a site
 * that is localhost) refuses its forms (the origin check); the person is told where the site is,
 * with and without JavaScript, instead of 'Algo ha salido mal'.
 */
for (const javaScriptEnabled of [true, false])
  test(`a sign-in sent from another address says where the site is (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
    baseURL,
  }) => {
    const site = new URL(baseURL!).origin;
    const elsewhere = site.replace("localhost", "127.0.0.1");
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${elsewhere}/login-cliente`);
    await page.getByLabel("Email").fill("alguien@example.com");
    await page.getByLabel("Contraseña").fill("una-contraseña-cualquiera");
    await page.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(page.getByText(`pero el sitio está en ${site}`)).toBeVisible();
    await expect(page.getByRole("link", { name: `Ir a ${site}` })).toHaveAttribute(
      "href",
      `${site}/`,
    );
    await expect(page.getByText("Algo ha salido mal")).toHaveCount(0);
    const shots = process.env.WRONG_ADDRESS_SCREENSHOTS;
    if (shots)
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({
          path: `${shots}/wrong-address-${javaScriptEnabled ? "js" : "nojs"}-${width}.png`,
        });
      }
    await context.close();
  });
