/**
 * Every action and API route that the hostile-input property test (tests/integration/
 * hostile-input.test.ts) floods with random and hostile input: a new action or resource route
 * joins with one line here. The test fails, naming it, for any module of app/routes.ts that
 * exports an `action`, or is a resource route (no page) with a `loader`, and is missing below.
 */
/** Ids the harness gives each signed-in role: its own (an admin's: a customer's). */
export type FixtureId = "checkoutSessionId" | "ticketId" | "attachmentId";

export type HostileRoute = {
  /** How the test and its report name the route. */
  name: string;
  /** The route module, as app/routes.ts names it (relative to app/). */
  module: string;
  /** Who sends the requests: anonymous visitors, a signed-in verified customer or an admin. */
  role: "anonymous" | "customer" | "admin";
  /** Which export is called: a POST to `action`, or a GET to `loader`. */
  kind: "action" | "loader";
  /**
   * The fields the route reads (form fields of an action, query parameters of a loader):
   * the generator sends them more often, with values that also pass validation now and then.
   */
  fields?: readonly string[];
  /**
   * URL parameters that half the time take one of the role's own ids (its checkout sessions);
   * every other parameter of the route's path always gets hostile text or a random UUID.
   */
  params?: Record<string, FixtureId>;
  /** Environment set (and the configuration re-read) for this route only. */
  env?: Record<string, string>;
};

// One line per route: prettier would spread them over several.
// prettier-ignore
export const hostileRoutes: readonly HostileRoute[] = [
  { name: "contacto", module: "routes/contacto.tsx", role: "anonymous", kind: "action", fields: ["name", "email", "service", "message", "website", "altcha"] },
  { name: "login-cliente", module: "routes/login-cliente.tsx", role: "anonymous", kind: "action", fields: ["email", "password"] },
  { name: "login (admin)", module: "routes/admin-login.tsx", role: "anonymous", kind: "action", fields: ["email", "password"] },
  { name: "registro", module: "routes/registro.tsx", role: "anonymous", kind: "action", fields: ["email", "password", "confirmPassword", "altcha"] },
  { name: "recuperar-password", module: "routes/recuperar-password.tsx", role: "anonymous", kind: "action", fields: ["email"] },
  { name: "actualizar-password", module: "routes/actualizar-password.tsx", role: "anonymous", kind: "action", fields: ["password", "confirmPassword", "token"] },
  { name: "verificar-email", module: "routes/verificar-email.tsx", role: "anonymous", kind: "action", fields: ["email"] },
  { name: "cerrar-sesion", module: "routes/cerrar-sesion.tsx", role: "customer", kind: "action" },
  { name: "confirmar-identidad", module: "routes/confirmar-identidad.tsx", role: "customer", kind: "action", fields: ["password", "code"] },
  { name: "cerrar-sesion (GET)", module: "routes/cerrar-sesion.tsx", role: "customer", kind: "loader" },
  { name: "checkout", module: "routes/checkout.ts", role: "customer", kind: "action", fields: ["serviceId", "immediateStart", "businessBuyer", "billingName", "billingTaxId", "billingAddress"] },
  { name: "checkout (GET)", module: "routes/checkout.ts", role: "customer", kind: "loader", fields: ["serviceId", "datos"] },
  { name: "mi-cuenta/eliminar", module: "routes/mi-cuenta-eliminar.ts", role: "customer", kind: "action", fields: ["confirmation", "password"] },
  { name: "mi-cuenta/eliminar (GET)", module: "routes/mi-cuenta-eliminar.ts", role: "customer", kind: "loader" },
  { name: "mi-cuenta/exportar", module: "routes/mi-cuenta-exportar.ts", role: "customer", kind: "loader" },
  { name: "cuenta/llaves-de-acceso", module: "routes/cuenta-llaves-de-acceso.ts", role: "customer", kind: "action", fields: ["intent", "passkeyId", "name"] },
  { name: "cuenta/llaves-de-acceso (GET)", module: "routes/cuenta-llaves-de-acceso.ts", role: "customer", kind: "loader" },
  { name: "cuenta/llaves-de-acceso/registro", module: "routes/cuenta-llaves-registro.ts", role: "customer", kind: "action", fields: ["step", "response"] },
  { name: "cuenta/llaves-de-acceso/registro (GET)", module: "routes/cuenta-llaves-registro.ts", role: "customer", kind: "loader" },
  { name: "cuenta/llaves-de-acceso/entrada", module: "routes/cuenta-llaves-entrada.ts", role: "anonymous", kind: "action", fields: ["step", "door", "response"] },
  { name: "cuenta/llaves-de-acceso/entrada (GET)", module: "routes/cuenta-llaves-entrada.ts", role: "anonymous", kind: "loader" },
  { name: "cuenta/sesiones", module: "routes/cuenta-sesiones.ts", role: "customer", kind: "action", fields: ["intent", "sessionId"] },
  { name: "cuenta/sesiones (GET)", module: "routes/cuenta-sesiones.ts", role: "customer", kind: "loader" },
  { name: "login/verificacion", module: "routes/login-verificacion.tsx", role: "anonymous", kind: "action", fields: ["code", "method"] },
  { name: "login-cliente/verificacion", module: "routes/login-cliente-verificacion.tsx", role: "anonymous", kind: "action", fields: ["code", "method"] },
  { name: "mi-cuenta/seguridad", module: "routes/mi-cuenta-seguridad.tsx", role: "customer", kind: "action", fields: ["intent", "password", "code", "uri"] },
  { name: "admin/seguridad", module: "routes/admin-seguridad.tsx", role: "admin", kind: "action", fields: ["intent", "password", "code", "uri"] },
  { name: "comprar/:servicio", module: "routes/comprar.tsx", role: "customer", kind: "action", fields: ["serviceId", "immediateStart", "businessBuyer", "billingName", "billingTaxId", "billingAddress"] },
  { name: "pago-simulado", module: "routes/pago-simulado.tsx", role: "customer", kind: "action", fields: ["outcome"], params: { sessionId: "checkoutSessionId" } },
  { name: "mi-cuenta/tickets/nuevo", module: "routes/mi-cuenta-ticket-nuevo.tsx", role: "customer", kind: "action", fields: ["subject", "category", "priority", "message", "purchaseId"] },
  { name: "mi-cuenta/tickets/:ticketId", module: "routes/mi-cuenta-ticket.tsx", role: "customer", kind: "action", fields: ["intent", "message"], params: { ticketId: "ticketId" } },
  { name: "admin/tickets/:ticketId", module: "routes/admin-ticket.tsx", role: "admin", kind: "action", fields: ["intent", "message", "status", "priority"], params: { ticketId: "ticketId" } },
  { name: "mi-cuenta/facturas/:invoiceId", module: "routes/mi-cuenta-factura.ts", role: "customer", kind: "loader" },
  { name: "mi-cuenta/facturas/:invoiceId/completa", module: "routes/mi-cuenta-factura-completa.tsx", role: "customer", kind: "action", fields: ["billingName", "billingTaxId", "billingAddress"] },
  { name: "mi-cuenta/compras/:purchaseId/desistir", module: "routes/mi-cuenta-desistir.tsx", role: "customer", kind: "action", fields: ["confirm"] },
  { name: "admin/pagos/:paymentId", module: "routes/admin-pago.tsx", role: "admin", kind: "action", fields: ["intent", "reason", "confirm", "deliveryStatus", "note"] },
  { name: "admin/facturas/:invoiceId", module: "routes/admin-factura.ts", role: "admin", kind: "loader" },
  { name: "admin/clientes/:customerId", module: "routes/admin-cliente.tsx", role: "admin", kind: "loader" },
  { name: "admin/usuarios/:userId/rol", module: "routes/admin-usuario-rol.tsx", role: "admin", kind: "loader", fields: ["rol", "volver"] },
  { name: "soporte/adjuntos/:attachmentId", module: "routes/soporte-adjunto.ts", role: "customer", kind: "loader", fields: ["vista"], params: { attachmentId: "attachmentId" } },
  { name: "perfil", module: "routes/perfil.tsx", role: "customer", kind: "action", fields: ["intent", "fullName", "phone", "company", "bio", "taxId", "billingName", "billingAddress"] },
  { name: "admin (panel)", module: "routes/admin.tsx", role: "admin", kind: "loader", fields: ["tab", "q", "estado", "orden", "pagina", "por", "consulta"] },
  { name: "admin (panel actions)", module: "routes/admin.tsx", role: "admin", kind: "action", fields: ["intent", "inquiryId", "userId", "role", "confirm"] },
  { name: "admin/exportar", module: "routes/admin-exportar.ts", role: "admin", kind: "loader", fields: ["tab", "q", "estado", "orden"] },
  { name: "admin/verifactu", module: "routes/admin-verifactu.tsx", role: "admin", kind: "loader", fields: ["estado", "tipo", "desde", "hasta", "factura", "antes", "despues", "ultima", "pagina"] },
  { name: "admin/verifactu (actions)", module: "routes/admin-verifactu.tsx", role: "admin", kind: "action", fields: ["intent", "recordId", "confirm"] },
  { name: "admin/verifactu/exportar", module: "routes/admin-verifactu-exportar.ts", role: "admin", kind: "loader", fields: ["desde", "hasta"] },
  { name: "admin/libro-facturas", module: "routes/admin-libro-facturas.ts", role: "admin", kind: "loader", fields: ["desde", "hasta"] },
  { name: "admin/auditoria", module: "routes/admin-auditoria.tsx", role: "admin", kind: "loader", fields: ["quien", "accion", "desde", "hasta", "pagina", "por"] },
  { name: "admin/auditoria/exportar", module: "routes/admin-auditoria-exportar.ts", role: "admin", kind: "loader", fields: ["quien", "accion", "desde", "hasta"] },
  { name: "api/altcha/challenge", module: "routes/api-altcha-challenge.ts", role: "anonymous", kind: "loader", env: { HUMAN_CHECK: "altcha" } },
  { name: "api/analitica", module: "routes/api-analitica.ts", role: "anonymous", kind: "action", fields: ["kind", "path", "referrer", "visit"] },
  { name: "api/analitica (GET)", module: "routes/api-analitica.ts", role: "anonymous", kind: "loader" },
  { name: "api/contacto", module: "routes/api-contacto.ts", role: "anonymous", kind: "action", fields: ["name", "email", "service", "message", "website", "altcha", "submissionKey"] },
  { name: "api/contacto (GET)", module: "routes/api-contacto.ts", role: "anonymous", kind: "loader" },
  { name: "sitemap.xml", module: "routes/sitemap[.]xml.ts", role: "anonymous", kind: "loader" },
  { name: "robots.txt", module: "routes/robots[.]txt.ts", role: "anonymous", kind: "loader" },
  { name: "security.txt", module: "routes/security[.]txt.ts", role: "anonymous", kind: "loader" },
];
