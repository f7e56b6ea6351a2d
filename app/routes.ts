import { index, route, type RouteConfig } from "@react-router/dev/routes";
import { servicesWithPages } from "./features/catalogue/services";

const legalPages = ["terminos", "privacidad", "cookies", "aviso-legal"];

export default [
  index("routes/home.tsx"),
  // One module serves every service page; the catalogue decides which paths exist.
  ...servicesWithPages().map((service) =>
    route(service.path!.slice(1), "routes/service.tsx", { id: `service-${service.slug}` }),
  ),
  route("precios", "routes/precios.tsx"),
  route("contacto", "routes/contacto.tsx"),
  ...legalPages.map((slug) => route(slug, "routes/legal.tsx", { id: `legal-${slug}` })),
  route("pago-exitoso", "routes/pago-exitoso.tsx"),
  route("login", "routes/coming-soon.tsx", { id: "admin-login" }),
  route("login-cliente", "routes/coming-soon.tsx", { id: "customer-login" }),
  route("registro", "routes/coming-soon.tsx", { id: "sign-up" }),
  route("verificar-email", "routes/coming-soon.tsx", { id: "verify-email" }),
  route("recuperar-password", "routes/coming-soon.tsx", { id: "recover-password" }),
  route("actualizar-password", "routes/coming-soon.tsx", { id: "update-password" }),
  route("mi-cuenta", "routes/coming-soon.tsx", { id: "account" }),
  route("perfil", "routes/coming-soon.tsx", { id: "profile" }),
  route("admin", "routes/coming-soon.tsx", { id: "admin" }),
  route("test-pagos", "routes/coming-soon.tsx", { id: "payment-test" }),
  // Dev mailbox: the loaders answer 404 in production.
  route("dev/correo", "routes/dev-correo.tsx"),
  route("dev/correo/:id", "routes/dev-correo-detail.tsx"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
