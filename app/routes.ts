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
  route("login", "routes/admin-login.tsx"),
  route("login-cliente", "routes/login-cliente.tsx"),
  route("registro", "routes/registro.tsx"),
  route("verificar-email", "routes/verificar-email.tsx"),
  route("recuperar-password", "routes/recuperar-password.tsx"),
  route("actualizar-password", "routes/actualizar-password.tsx"),
  route("cerrar-sesion", "routes/cerrar-sesion.tsx"),
  route("mi-cuenta", "routes/mi-cuenta.tsx"),
  route("mi-cuenta/exportar", "routes/mi-cuenta-exportar.ts"),
  route("mi-cuenta/eliminar", "routes/mi-cuenta-eliminar.ts"),
  route("mi-cuenta/tickets/nuevo", "routes/mi-cuenta-ticket-nuevo.tsx"),
  route("mi-cuenta/tickets/:ticketId", "routes/mi-cuenta-ticket.tsx"),
  route("mi-cuenta/facturas/:invoiceId", "routes/mi-cuenta-factura.ts"),
  route("mi-cuenta/compras/:purchaseId/desistir", "routes/mi-cuenta-desistir.tsx"),
  route("perfil", "routes/perfil.tsx"),
  route("admin", "routes/admin.tsx"),
  route("admin/exportar", "routes/admin-exportar.ts"),
  route("admin/libro-facturas", "routes/admin-libro-facturas.ts"),
  route("admin/tickets/:ticketId", "routes/admin-ticket.tsx"),
  route("admin/facturas/:invoiceId", "routes/admin-factura.ts"),
  route("admin/pagos/:paymentId", "routes/admin-pago.tsx"),
  route("admin/verifactu", "routes/admin-verifactu.tsx"),
  route("admin/verifactu/exportar", "routes/admin-verifactu-exportar.ts"),
  route("admin/verifactu/declaracion", "routes/admin-verifactu-declaracion.tsx"),
  route("test-pagos", "routes/test-pagos.tsx"),
  route("checkout", "routes/checkout.ts"),
  route("pago-simulado/:sessionId", "routes/pago-simulado.tsx"),
  route("api/altcha/challenge", "routes/api-altcha-challenge.ts"),
  route("api/analitica", "routes/api-analitica.ts"),
  route("api/contacto", "routes/api-contacto.ts"),
  route("soporte/adjuntos/:attachmentId", "routes/soporte-adjunto.ts"),
  // Dev mailbox: the loaders answer 404 in production.
  route("dev/correo", "routes/dev-correo.tsx"),
  route("dev/correo/:id", "routes/dev-correo-detail.tsx"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  route(".well-known/security.txt", "routes/security[.]txt.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
