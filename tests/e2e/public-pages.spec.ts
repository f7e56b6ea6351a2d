import { expect, openPage, publicPaths, test } from "./fixtures";

const BRAND = "Vértice Digital";
const HERO =
  "Asistencia técnica global, IA, desarrollo web, ciberseguridad y reputación digital. Todo en un solo lugar.";

test("home shows the hero, six service cards and the contact section", async ({ page }) => {
  await openPage(page, "/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(HERO);
  await expect(page.getByRole("link", { name: "Ver servicios" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Contactar" })).toBeVisible();
  const cards = page.locator("section#servicios > div > ul > li");
  await expect(cards).toHaveCount(6);
  for (const name of [
    "Consultoría Puntual",
    "Asistencia Informática",
    "Consultoría en IA",
    "Desarrollo Web",
    "Ciberseguridad",
    "Reputación Digital",
  ]) {
    await expect(
      page.locator("#servicios").getByRole("heading", { name, exact: true }),
    ).toBeVisible();
  }
  await expect(page.locator("#servicios a", { hasText: "Consultoría Puntual" })).toHaveAttribute(
    "href",
    "/precios#consultoria-puntual",
  );
  await expect(page.locator("section#contacto")).toBeVisible();
});

const servicePages = [
  {
    path: "/asistencia-digital",
    name: "Asistencia Informática",
    price: "Desde solo 149€",
    promise: "5 días",
  },
  {
    path: "/inteligencia-artificial",
    name: "Consultoría en IA",
    price: "Desde solo 599€",
    promise: "15-20 días",
  },
  {
    path: "/desarrollo-web",
    name: "Desarrollo Web",
    price: "Desde solo 799€",
    promise: "3 meses de hosting gratis",
  },
  {
    path: "/ciberseguridad",
    name: "Ciberseguridad",
    price: "Desde solo 449€",
    promise: "10-15 días",
  },
  {
    path: "/reputacion-digital",
    name: "Reputación Digital",
    price: "Desde solo 299€",
    promise: "7-10 días",
  },
];

for (const service of servicePages) {
  test(`${service.path} shows its description, six features, price, promise and actions`, async ({
    page,
  }) => {
    await openPage(page, service.path);
    await expect(page).toHaveTitle(`${service.name} | ${BRAND}`);
    await expect(
      page.getByRole("main").getByText(service.name, { exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByText(service.price)).toBeVisible();
    await expect(page.getByText(service.promise, { exact: false }).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Qué incluye" })).toBeVisible();
    await expect(page.locator("section[aria-labelledby=incluye-title] li")).toHaveCount(6);
    await expect(page.getByRole("button", { name: "Comprar ahora" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Ver todos los precios" })).toBeVisible();
    await expect(page.locator("section#contacto form")).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
}

test("a service page opens at the top even when reached from a scrolled page", async ({ page }) => {
  await openPage(page, "/");
  await page.locator("#servicios").scrollIntoViewIfNeeded();
  await page
    .locator("#servicios")
    .getByRole("link", { name: /Ciberseguridad/ })
    .click();
  await expect(page).toHaveURL(/\/ciberseguridad$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test("/precios shows six cards with their claims, anchors and the call to action", async ({
  page,
}) => {
  await openPage(page, "/precios");
  const cards = page.locator("article");
  await expect(cards).toHaveCount(6);
  await expect(page.getByText("Entrega Rápida")).toHaveCount(6);
  await expect(page.getByText("Pago único • Sin cuotas")).toHaveCount(6);
  for (const [anchor, price] of [
    ["consultoria-puntual", "79€"],
    ["asistencia-digital", "149€"],
    ["reputacion-digital", "299€"],
    ["ciberseguridad", "449€"],
    ["inteligencia-artificial", "599€"],
    ["desarrollo-web", "799€"],
  ] as const) {
    const card = page.locator(`article#${anchor}`);
    await expect(card.getByText(price, { exact: true })).toBeVisible();
    await expect(card.locator("li")).toHaveCount(4);
    await expect(card.getByRole("button", { name: "Comprar ahora" })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Hablar con un experto" })).toHaveAttribute(
    "href",
    "/#contacto",
  );
  await expect(page.getByText("100% seguro • Reembolso garantizado")).toBeVisible();
});

test("/precios lays the cards in three columns on desktop", async ({ page }) => {
  await openPage(page, "/precios");
  const tops = await page
    .locator("article")
    .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(2);
});

const legalPages = [
  { path: "/terminos", title: "Términos y Condiciones", facts: ["7 días", "12 meses", "España"] },
  {
    path: "/privacidad",
    title: "Política de Privacidad",
    facts: ["6 años", "Agencia Española de Protección de Datos"],
  },
  {
    path: "/cookies",
    title: "Política de Cookies",
    facts: ["13 meses", "7 días", "1 año", "30 días"],
  },
  {
    path: "/aviso-legal",
    title: "Aviso Legal",
    facts: ["B00000000", "Vértice Digital Servicios S.L."],
  },
];

for (const legal of legalPages) {
  test(`${legal.path} publishes its legal points`, async ({ page }) => {
    await openPage(page, legal.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(legal.title);
    for (const fact of legal.facts) await expect(page.getByRole("main")).toContainText(fact);
    await expect(page.getByRole("main").locator("time").first()).toHaveText(
      /^\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}$/,
    );
  });
}

test("every spec route answers, later features with their placeholder", async ({ page }) => {
  for (const path of [
    "/login",
    "/login-cliente",
    "/registro",
    "/verificar-email",
    "/recuperar-password",
    "/actualizar-password",
    "/mi-cuenta",
    "/perfil",
    "/admin",
    "/test-pagos",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
});

test("/pago-exitoso names a service of the catalogue, never the address's text, else 'servicio'", async ({
  page,
}) => {
  await openPage(page, "/pago-exitoso?service=Desarrollo%20Web");
  await expect(page.getByText("Has contratado: Desarrollo Web")).toBeVisible();
  await openPage(page, "/pago-exitoso");
  await expect(page.getByText("Has contratado: servicio")).toBeVisible();
  // Issue 36, item 7: a link could make the page say anything.
  await openPage(page, "/pago-exitoso?service=HACKME");
  await expect(page.getByText("Has contratado: servicio")).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText("HACKME");
  await openPage(page, "/pago-exitoso?service=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E");
  await expect(page.getByText("Has contratado: servicio")).toBeVisible();
  await expect(page.locator("main img")).toHaveCount(0);
});

test("an unknown path answers 404 with 'Page not found' and a way home", async ({ page }) => {
  const response = await page.goto("/esta-pagina-no-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Volver al inicio" }).click();
  await expect(page).toHaveURL(/\/$/);
});

for (const path of publicPaths) {
  test(`${path} carries title, description, canonical URL and Open Graph tags`, async ({
    page,
    baseURL,
  }) => {
    await openPage(page, path);
    expect(await page.title()).toMatch(new RegExp(`(^| \\| )${BRAND}$`));
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      `${baseURL}${path}`,
    );
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute("content", "es_ES");
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
      "content",
      /Vértice Digital/,
    );
  });
}

test("structured data: Organization on home, Service with a EUR offer on service pages", async ({
  page,
}) => {
  await openPage(page, "/");
  const home = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
  );
  expect(home).toMatchObject({ "@type": "Organization", areaServed: "ES", name: BRAND });
  await openPage(page, "/ciberseguridad");
  const service = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
  );
  expect(service).toMatchObject({
    "@type": "Service",
    name: "Ciberseguridad",
    offers: { "@type": "Offer", price: "449.00", priceCurrency: "EUR" },
  });
});

test("footer: services, quick links, contact e-mail, four social links, legal links, copyright", async ({
  page,
}) => {
  await openPage(page, "/precios");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Desarrollo Web" })).toHaveAttribute(
    "href",
    "/desarrollo-web",
  );
  await expect(footer.getByRole("link", { name: "Servicios" })).toHaveAttribute(
    "href",
    "/#servicios",
  );
  await expect(footer.getByRole("link", { name: "Contacto" })).toHaveAttribute(
    "href",
    "/#contacto",
  );
  await expect(footer.getByRole("link", { name: "hola@verticedigital.es" })).toHaveAttribute(
    "href",
    "mailto:hola@verticedigital.es",
  );
  for (const network of ["LinkedIn", "X", "Instagram", "Facebook"]) {
    await expect(footer.getByRole("link", { name: network, exact: true })).toBeVisible();
  }
  for (const [name, href] of [
    ["Privacidad", "/privacidad"],
    ["Términos", "/terminos"],
    ["Cookies", "/cookies"],
  ] as const) {
    await expect(footer.getByRole("link", { name })).toHaveAttribute("href", href);
  }
  await expect(footer).toContainText(`© ${new Date().getFullYear()} ${BRAND}`);
});
