import { describe, expect, it } from "vitest";
import { isCurrentNavItem, navItems } from "./navigation";

const current = (pathname: string) =>
  navItems.filter((item) => isCurrentNavItem(item, pathname)).map((item) => item.label);

describe("navigation highlight", () => {
  it("marks the current page", () => {
    expect(current("/")).toEqual(["Inicio"]);
    expect(current("/precios")).toEqual(["Precios"]);
  });

  it("marks Servicios on a service page and nothing on other pages", () => {
    expect(current("/ciberseguridad")).toEqual(["Servicios"]);
    expect(current("/terminos")).toEqual([]);
  });
});
