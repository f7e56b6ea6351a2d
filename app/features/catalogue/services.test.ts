import { describe, expect, it } from "vitest";
import {
  bookableServices,
  contactServiceCodes,
  formatPrice,
  priceFromText,
  serviceByPath,
  serviceCodeLabel,
  serviceHref,
  services,
  servicesForHome,
  servicesWithPages,
} from "./services";
import { SITE_LOCALE } from "~/platform/locale";

describe("service catalogue", () => {
  it("holds six services priced 79, 149, 299, 449, 599 and 799 EUR", () => {
    expect(services).toHaveLength(6);
    expect(services.map((s) => s.priceCents).sort((a, b) => a - b)).toEqual([
      7_900, 14_900, 29_900, 44_900, 59_900, 79_900,
    ]);
    expect(Object.fromEntries(services.map((s) => [s.name, s.priceCents / 100]))).toEqual({
      "Consultoría Puntual": 79,
      "Asistencia Informática": 149,
      "Reputación Digital": 299,
      Ciberseguridad: 449,
      "Consultoría en IA": 599,
      "Desarrollo Web": 799,
    });
  });

  it("gives ids 1-6, unique slugs and four price-card features each", () => {
    expect(services.map((s) => s.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(services.map((s) => s.slug)).size).toBe(6);
    for (const service of services) expect(service.priceFeatures).toHaveLength(4);
  });

  it("books Consultoría Puntual as an hour in the calendar; the rest are delivered work", () => {
    expect(bookableServices().map((s) => [s.name, s.durationMinutes])).toEqual([
      ["Consultoría Puntual", 60],
    ]);
    expect(services.filter((s) => s.kind === "service")).toHaveLength(5);
  });

  it("says a consultation's length in its copy as the figure says it", () => {
    for (const service of bookableServices()) {
      const hours = service.durationMinutes / 60;
      const length = `${hours} ${hours === 1 ? "hora" : "horas"}`;
      expect(service.shortDescription).toContain(length);
      expect(service.priceFeatures[0]).toContain(length);
    }
  });

  it("has a page with six features for the five services of the route table", () => {
    expect(servicesWithPages().map((s) => s.path)).toEqual([
      "/asistencia-digital",
      "/inteligencia-artificial",
      "/desarrollo-web",
      "/ciberseguridad",
      "/reputacion-digital",
    ]);
    for (const service of servicesWithPages()) {
      expect(service.page?.features).toHaveLength(6);
      expect(service.page?.promise.length).toBeGreaterThan(10);
    }
  });

  it("maps the service pages of the spec to their services and promises", () => {
    expect(serviceByPath("/asistencia-digital")?.name).toBe("Asistencia Informática");
    expect(priceFromText(serviceByPath("/asistencia-digital")!)).toBe("Desde solo 149€");
    expect(serviceByPath("/inteligencia-artificial")?.page?.promise).toContain("15-20 días");
    expect(serviceByPath("/desarrollo-web")?.page?.promise).toContain("3 meses de hosting gratis");
    expect(serviceByPath("/ciberseguridad")?.page?.promise).toContain("10-15 días");
    expect(serviceByPath("/reputacion-digital")?.page?.promise).toContain("7-10 días");
    expect(serviceByPath("/nope")).toBeUndefined();
  });

  it("lists the home cards in the spec's order, Consultoría Puntual linking to its price card", () => {
    expect(servicesForHome().map((s) => s.name)).toEqual([
      "Consultoría Puntual",
      "Asistencia Informática",
      "Consultoría en IA",
      "Desarrollo Web",
      "Ciberseguridad",
      "Reputación Digital",
    ]);
    expect(serviceHref(servicesForHome()[0]!)).toBe("/precios#consultoria-puntual");
    expect(serviceHref(servicesForHome()[1]!)).toBe("/asistencia-digital");
  });

  it("names one Stripe price variable per service", () => {
    const variables = services.map((s) => s.stripePriceEnv);
    expect(new Set(variables).size).toBe(6);
    for (const variable of variables) expect(variable).toMatch(/^STRIPE_PRICE_[A-Z_]+$/);
  });
});

describe("service codes", () => {
  it("label the six codes of the spec", () => {
    expect(serviceCodeLabel("asistencia-digital")).toBe("Asistencia Informática");
    expect(serviceCodeLabel("ia")).toBe("Consultoría en IA");
    expect(serviceCodeLabel("desarrollo-web")).toBe("Desarrollo Web");
    expect(serviceCodeLabel("ciberseguridad")).toBe("Ciberseguridad");
    expect(serviceCodeLabel("reputacion-digital")).toBe("Reputación Digital");
    expect(serviceCodeLabel("otro")).toBe("Otro servicio");
  });

  it("show an unknown code as it is", () => {
    expect(serviceCodeLabel("seo-local")).toBe("seo-local");
    expect(serviceCodeLabel("")).toBe("");
  });

  it("map Consultoría Puntual to 'otro', which the contact form does not offer", () => {
    expect(services.find((s) => s.name === "Consultoría Puntual")?.code).toBe("otro");
    expect(contactServiceCodes).toEqual([
      "asistencia-digital",
      "ia",
      "desarrollo-web",
      "ciberseguridad",
      "reputacion-digital",
    ]);
  });
});

describe("formatPrice", () => {
  it("shows whole euros without decimals and with the euro sign attached", () => {
    expect(formatPrice(7_900)).toBe("79€");
    expect(formatPrice(79_900)).toBe("799€");
    expect(formatPrice(1_250)).toBe("12,50€");
  });

  it("always shows cents when asked, as the admin's revenue does", () => {
    expect(formatPrice(1_234_500, { cents: "always" })).toBe("12.345,00€");
    expect(formatPrice(7_905, { cents: "always" })).toBe("79,05€");
  });

  it("writes every amount as es-ES Intl formatting does", () => {
    const wholeEuros = new Intl.NumberFormat(SITE_LOCALE.intl, { maximumFractionDigits: 0 });
    const withCents = new Intl.NumberFormat(SITE_LOCALE.intl, { minimumFractionDigits: 2 });
    const amounts = [0, 5, 100, 7_900, 14_950, 99_999, 150_000, 1_234_567, 1_000_000_00, -2_500];
    for (const cents of amounts) {
      const euros = cents / 100;
      const expected = Number.isInteger(euros) ? wholeEuros.format(euros) : withCents.format(euros);
      expect(formatPrice(cents)).toBe(`${expected.replace("\u2212", "-")}€`);
    }
  });
});
