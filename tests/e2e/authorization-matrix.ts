import type { APIResponse } from "@playwright/test";

/**
 * Who may do what on every route. A new route gets one row here; the authorisation spec fails
 * for any route of app/routes.ts or of Express (app/platform/http/express-routes.ts) without one.
 * A route may have several rows (the panel's tabs, each tab's CSV).
 *
 * 'customer' owns the ids in the URLs and forms; 'otherCustomer' is signed in too and tries them.
 * 'support', 'finance' and 'admin' are the staff roles (app/features/identity/staff-roles.ts):
 * a staff member whose role may not do something gets 403 on every /admin route (decision 043).
 */
export const roles = [
  "anonymous",
  "customer",
  "otherCustomer",
  "support",
  "finance",
  "admin",
] as const;
export type Role = (typeof roles)[number];

export type MatrixIds = {
  checkoutSessionId: string;
  mailId: string;
  ticketId: string;
  attachmentId: string;
  invoiceId: string;
  purchaseId: string;
  paymentId: string;
  /** The customer's row in Clientes, for their staff page. */
  customerId: string;
};

export type Outcome =
  | "page" // 200 with an HTML page
  | "ok" // any 2xx
  | "signIn" // sent to /login-cliente
  | "adminSignIn" // sent to /login
  | "unauthorised" // 401 or 403
  | "refused" // 400, 409, 422 or 429: the input was checked and refused
  | "notFound" // 404: the thing does not exist for this visitor
  | "noAction" // 405: the route takes no POST
  | { redirect: string }; // a redirect to this path

type PerRole = Record<Role, Outcome>;

export type MatrixRow = {
  /** The route as React Router's table (app/routes.ts) or Express spells it. */
  route: string;
  /** The address to try. */
  url: (ids: MatrixIds) => string;
  get: PerRole;
  post: PerRole;
  /** The form sent with the POST. */
  form?: (ids: MatrixIds) => Record<string, string>;
  /** Tried last: it ends the session of some roles. */
  endsSessions?: boolean;
};

const everyone = (outcome: Outcome): PerRole => ({
  anonymous: outcome,
  customer: outcome,
  otherCustomer: outcome,
  support: outcome,
  finance: outcome,
  admin: outcome,
});
const signedIn = (anonymous: Outcome, others: Outcome): PerRole => ({
  anonymous,
  customer: others,
  otherCustomer: others,
  support: others,
  finance: others,
  admin: others,
});
const ownerOnly = (anonymous: Outcome, owner: Outcome, others: Outcome): PerRole => ({
  anonymous,
  customer: owner,
  otherCustomer: others,
  support: others,
  finance: others,
  admin: others,
});
/** A staff route: anyone else goes to /login; each staff role as given. */
const staff = (outcomes: Record<"support" | "finance" | "admin", Outcome>): PerRole => ({
  anonymous: "adminSignIn",
  customer: "adminSignIn",
  otherCustomer: "adminSignIn",
  ...outcomes,
});
const adminOnly = (outcome: Outcome): PerRole =>
  staff({ support: "unauthorised", finance: "unauthorised", admin: outcome });
/** Money: payments, invoices, refunds, delivery, Verifactu, analytics. */
const financeAndAdmin = (outcome: Outcome): PerRole =>
  staff({ support: "unauthorised", finance: outcome, admin: outcome });
/** The support desk: tickets and enquiries. */
const supportAndAdmin = (outcome: Outcome): PerRole =>
  staff({ support: outcome, finance: "unauthorised", admin: outcome });
const anyStaff = (outcome: Outcome): PerRole =>
  staff({ support: outcome, finance: outcome, admin: outcome });

/** The panel's own POST: a role change naming no account, refused; only admins may try. */
const panelPost = {
  post: staff({ support: "unauthorised", finance: "unauthorised", admin: "refused" }),
  form: () => ({ intent: "set-role", userId: "", role: "support", confirm: "yes" }),
};

/** A public page that takes no form. */
/** Where /cuenta/llaves-de-acceso and /cuenta/sesiones send each role back (or to sign in). */
const accountSecurityPage: PerRole = {
  anonymous: "signIn",
  customer: { redirect: "/mi-cuenta/seguridad" },
  otherCustomer: { redirect: "/mi-cuenta/seguridad" },
  support: { redirect: "/admin/seguridad" },
  finance: { redirect: "/admin/seguridad" },
  admin: { redirect: "/admin/seguridad" },
};

const publicPage = (route: string): MatrixRow => ({
  route,
  url: () => `/${route}`,
  get: everyone("page"),
  post: everyone("noAction"),
});

export const authorizationMatrix: MatrixRow[] = [
  publicPage(""),
  ...[
    "asistencia-digital",
    "inteligencia-artificial",
    "desarrollo-web",
    "ciberseguridad",
    "reputacion-digital",
  ].map(publicPage),
  publicPage("precios"),
  ...["terminos", "privacidad", "cookies", "aviso-legal"].map(publicPage),
  publicPage("pago-exitoso"),
  publicPage("test-pagos"),
  {
    route: "contacto",
    url: () => "/contacto",
    get: everyone("page"),
    post: everyone("refused"),
    form: () => ({ name: "", email: "no", service: "", message: "" }),
  },
  {
    route: "login",
    url: () => "/login",
    get: everyone("page"),
    post: everyone("refused"),
    form: () => ({ email: "no-es-un-email", password: "x" }),
  },
  {
    route: "login-cliente",
    url: () => "/login-cliente",
    get: signedIn("page", { redirect: "/precios" }),
    // Refused either way; a signed-in visitor is then sent on, as the page's loader does.
    post: signedIn("unauthorised", { redirect: "/precios" }),
    form: () => ({ email: "nadie-matrix@example.com", password: "contraseña-equivocada" }),
  },
  // The code step of the sign-in (decision 044): without a password just checked (our signed
  // challenge cookie) there is nothing to verify; back to the password, whoever asks.
  {
    route: "login/verificacion",
    url: () => "/login/verificacion",
    get: everyone({ redirect: "/login" }),
    post: everyone({ redirect: "/login" }),
    form: () => ({ method: "totp", code: "123456" }),
  },
  {
    route: "login-cliente/verificacion",
    url: () => "/login-cliente/verificacion",
    get: everyone({ redirect: "/login-cliente" }),
    post: everyone({ redirect: "/login-cliente" }),
    form: () => ({ method: "totp", code: "123456" }),
  },
  {
    route: "registro",
    url: () => "/registro",
    get: signedIn("page", { redirect: "/mi-cuenta" }),
    post: signedIn("refused", { redirect: "/mi-cuenta" }),
    form: () => ({ email: "no-es-un-email", password: "x", confirmPassword: "y" }),
  },
  {
    route: "verificar-email",
    url: () => "/verificar-email",
    get: everyone("page"),
    // Without the pending address of a sign-up there is nothing to resend; the customers (and
    // the support and finance staff, who signed up as customers) still carry theirs, already
    // verified, which is refused.
    post: {
      anonymous: { redirect: "/registro" },
      customer: "refused",
      otherCustomer: "refused",
      support: "refused",
      finance: "refused",
      admin: { redirect: "/registro" },
    },
  },
  {
    route: "recuperar-password",
    url: () => "/recuperar-password",
    get: everyone("page"),
    post: everyone("ok"),
    // A new address each time: the limit per address is not what this row is about.
    form: () => ({ email: `nadie-${crypto.randomUUID()}@example.com` }),
  },
  {
    route: "actualizar-password",
    url: () => "/actualizar-password?token=falso",
    get: everyone("page"),
    post: everyone("refused"),
    form: () => ({ token: "falso", password: "otra-contraseña-1", confirmPassword: "x" }),
  },
  {
    route: "mi-cuenta",
    url: () => "/mi-cuenta",
    get: signedIn("signIn", "page"),
    post: everyone("noAction"),
  },
  {
    route: "mi-cuenta/exportar",
    url: () => "/mi-cuenta/exportar",
    get: signedIn("signIn", "ok"),
    post: everyone("noAction"),
  },
  {
    route: "mi-cuenta/eliminar",
    url: () => "/mi-cuenta/eliminar",
    get: everyone({ redirect: "/mi-cuenta" }),
    // Without the confirmation word nothing is deleted: back to the settings.
    post: signedIn("signIn", { redirect: "/mi-cuenta" }),
    form: () => ({ confirmation: "no" }),
  },
  {
    // A proof of identity before a sensitive change (decision 063): any signed-in account; a
    // form without the password is refused and changes nothing.
    route: "confirmar-identidad",
    url: () => "/confirmar-identidad",
    get: signedIn("signIn", "page"),
    post: signedIn("signIn", "refused"),
    form: () => ({ password: "" }),
  },
  {
    route: "mi-cuenta/seguridad",
    url: () => "/mi-cuenta/seguridad",
    get: signedIn("signIn", "page"),
    // A change of the factor asks for the password: without one it is refused.
    post: signedIn("signIn", "refused"),
    form: () => ({ intent: "start", password: "" }),
  },
  // Passkeys and sessions (decision 045): any signed-in account manages its own; a form without
  // a valid intent goes back to the account's security page.
  ...["cuenta/llaves-de-acceso", "cuenta/sesiones"].map((route): MatrixRow => ({
    route,
    url: () => `/${route}`,
    get: accountSecurityPage,
    post: accountSecurityPage,
    form: () => ({ intent: "nada" }),
  })),
  {
    route: "cuenta/llaves-de-acceso/registro",
    url: () => "/cuenta/llaves-de-acceso/registro",
    get: everyone("noAction"),
    // A script posts JSON: a form is refused, and without a session before it is read.
    post: signedIn("unauthorised", "refused"),
  },
  {
    route: "cuenta/llaves-de-acceso/entrada",
    url: () => "/cuenta/llaves-de-acceso/entrada",
    get: everyone("noAction"),
    post: everyone("refused"),
  },
  {
    route: "mi-cuenta/tickets/nuevo",
    url: () => "/mi-cuenta/tickets/nuevo",
    get: signedIn("signIn", "page"),
    // A subject too short: refused, no ticket opened.
    post: signedIn("signIn", "refused"),
    form: () => ({ subject: "x", category: "otro", priority: "low", message: "corto" }),
  },
  {
    route: "mi-cuenta/tickets/:ticketId",
    url: ({ ticketId }) => `/mi-cuenta/tickets/${ticketId}`,
    // Staff read tickets at /admin/tickets/:id; here only the owner does.
    get: ownerOnly("signIn", "page", "notFound"),
    post: ownerOnly("signIn", "refused", "notFound"),
    form: () => ({ intent: "message", message: "corto" }),
  },
  {
    route: "perfil",
    url: () => "/perfil",
    get: signedIn("signIn", "page"),
    post: signedIn("signIn", { redirect: "/perfil" }),
    form: () => ({ intent: "save", fullName: "Matriz", phone: "", company: "", bio: "" }),
  },
  {
    route: "checkout",
    url: () => "/checkout",
    get: everyone({ redirect: "/precios" }),
    post: signedIn("unauthorised", "ok"),
    form: () => ({ serviceId: "2", immediateStart: "yes" }),
  },
  {
    // The checkout as a page (no JavaScript): the post lacks the consent, so it is refused.
    route: "comprar/:servicio",
    url: () => "/comprar/ciberseguridad",
    get: signedIn("signIn", "page"),
    post: signedIn("signIn", "refused"),
    form: () => ({ serviceId: "4" }),
  },
  {
    route: "pago-simulado/:sessionId",
    url: ({ checkoutSessionId }) => `/pago-simulado/${checkoutSessionId}`,
    get: ownerOnly("signIn", "page", "notFound"),
    post: ownerOnly("signIn", "refused", "notFound"),
    form: () => ({ outcome: "ninguno" }),
  },
  {
    route: "api/altcha/challenge",
    url: () => "/api/altcha/challenge",
    get: everyone("ok"),
    post: everyone("noAction"),
  },
  {
    // The analytics beacon: POST only (GET is 405), and a form is not a beacon.
    route: "api/analitica",
    url: () => "/api/analitica",
    get: everyone("noAction"),
    post: everyone("refused"),
  },
  {
    // The contact form's answer for a light page's script: POST only, and an empty form is refused.
    route: "api/contacto",
    url: () => "/api/contacto",
    get: everyone("noAction"),
    post: everyone("refused"),
  },
  // The dev mailbox answers any browser on this machine in local mode (never in production).
  publicPage("dev/correo"),
  {
    route: "dev/correo/:id",
    url: ({ mailId }) => `/dev/correo/${mailId}`,
    get: everyone("page"),
    post: everyone("noAction"),
  },
  {
    route: "sitemap.xml",
    url: () => "/sitemap.xml",
    get: everyone("ok"),
    post: everyone("noAction"),
  },
  {
    route: "robots.txt",
    url: () => "/robots.txt",
    get: everyone("ok"),
    post: everyone("noAction"),
  },
  {
    route: ".well-known/security.txt",
    url: () => "/.well-known/security.txt",
    get: everyone("ok"),
    post: everyone("noAction"),
  },
  {
    route: "*",
    url: () => "/no-existe",
    get: everyone("notFound"),
    post: everyone("noAction"),
  },
  // Express's own paths.
  { route: "/healthz", url: () => "/healthz", get: everyone("ok"), post: everyone("noAction") },
  { route: "/readyz", url: () => "/readyz", get: everyone("ok"), post: everyone("noAction") },
  {
    route: "/api/stripe/webhook",
    url: () => "/api/stripe/webhook",
    get: everyone("notFound"),
    // Unsigned: refused whoever sends it.
    post: everyone("refused"),
  },
  {
    route: "/api/auth/verify-email",
    url: () => "/api/auth/verify-email?token=falso&callbackURL=%2Fverificar-email",
    get: everyone({ redirect: "/verificar-email" }),
    post: everyone("notFound"),
  },
  {
    route: "/api/auth/reset-password/:token",
    url: () => "/api/auth/reset-password/falso?callbackURL=%2Factualizar-password",
    get: everyone({ redirect: "/actualizar-password" }),
    post: everyone("notFound"),
  },
  {
    route: "/api/auth/{*rest}",
    url: () => "/api/auth/get-session",
    get: everyone("notFound"),
    post: everyone("notFound"),
  },
  {
    // Where staff enrol their second factor: every staff role, with or without one.
    route: "admin/seguridad",
    url: () => "/admin/seguridad",
    get: anyStaff("page"),
    post: anyStaff("refused"),
    form: () => ({ intent: "start", password: "" }),
    endsSessions: true,
  },
  // A customer who opens the admin panel is signed out, so these run last.
  {
    route: "admin",
    url: () => "/admin",
    // The dashboard shows revenue: support is sent on to its first section (/admin?tab=…).
    get: staff({ support: { redirect: "/admin" }, finance: "page", admin: "page" }),
    // Staff's changes post here; a request naming no account is refused, nothing changes.
    ...panelPost,
    endsSessions: true,
  },
  ...(
    [
      ["consultas", supportAndAdmin("page")],
      ["pagos", financeAndAdmin("page")],
      ["tickets", supportAndAdmin("page")],
      ["usuarios", adminOnly("page")],
      ["clientes", anyStaff("page")],
      ["analitica", financeAndAdmin("page")],
    ] as const
  ).map(([tab, get]): MatrixRow => ({
    route: "admin",
    url: () => `/admin?tab=${tab}`,
    get,
    ...panelPost,
    endsSessions: true,
  })),
  {
    route: "admin",
    url: () => "/admin?tab=consultas",
    get: supportAndAdmin("page"),
    // Marking an enquiry needs enquiries.handle: an id that is none is then refused.
    post: supportAndAdmin("refused"),
    form: () => ({ intent: "inquiry-handled", inquiryId: "no-es-un-id" }),
    endsSessions: true,
  },
  ...(
    [
      ["pagos", financeAndAdmin("ok")],
      ["consultas", supportAndAdmin("ok")],
      ["tickets", supportAndAdmin("ok")],
      ["usuarios", adminOnly("ok")],
      ["clientes", financeAndAdmin("ok")],
    ] as const
  ).map(([tab, get]): MatrixRow => ({
    route: "admin/exportar",
    url: () => `/admin/exportar?tab=${tab}`,
    get,
    post: everyone("noAction"),
    endsSessions: true,
  })),
  {
    route: "admin/libro-facturas",
    url: () => "/admin/libro-facturas?desde=2026-01-01&hasta=2026-03-31",
    get: financeAndAdmin("ok"),
    post: everyone("noAction"),
    endsSessions: true,
  },
  {
    route: "admin/verifactu",
    url: () => "/admin/verifactu",
    get: financeAndAdmin("page"),
    // An anulación without its confirmation is refused; nothing is recorded.
    post: financeAndAdmin("refused"),
    form: () => ({ intent: "cancel-record", recordId: "1", confirm: "" }),
    endsSessions: true,
  },
  {
    route: "admin/verifactu/exportar",
    url: () => "/admin/verifactu/exportar?desde=2026-01-01&hasta=2026-12-31",
    get: financeAndAdmin("ok"),
    post: everyone("noAction"),
    endsSessions: true,
  },
  {
    route: "admin/verifactu/declaracion",
    url: () => "/admin/verifactu/declaracion",
    get: financeAndAdmin("page"),
    post: everyone("noAction"),
    endsSessions: true,
  },
  {
    route: "admin/auditoria",
    url: () => "/admin/auditoria?accion=role.change",
    get: adminOnly("page"),
    post: everyone("noAction"),
    endsSessions: true,
  },
  {
    route: "admin/auditoria/exportar",
    url: () => "/admin/auditoria/exportar?accion=role.change",
    get: adminOnly("ok"),
    post: everyone("noAction"),
    endsSessions: true,
  },
  {
    route: "mi-cuenta/facturas/:invoiceId",
    url: ({ invoiceId }) => `/mi-cuenta/facturas/${invoiceId}`,
    // Its customer downloads it here; for any other account it does not exist (staff use theirs).
    get: ownerOnly("signIn", "ok", "notFound"),
    post: everyone("noAction"),
  },
  {
    route: "mi-cuenta/facturas/:invoiceId/completa",
    url: ({ invoiceId }) => `/mi-cuenta/facturas/${invoiceId}/completa`,
    // Its customer asks here for a complete invoice in its place (decision 070).
    get: ownerOnly("signIn", "page", "notFound"),
    // Without the billing data the owner's request is refused; nothing is issued.
    post: ownerOnly("signIn", "refused", "notFound"),
    form: () => ({ billingName: "", billingTaxId: "", billingAddress: "" }),
  },
  {
    route: "mi-cuenta/compras/:purchaseId/desistir",
    url: ({ purchaseId }) => `/mi-cuenta/compras/${purchaseId}/desistir`,
    get: ownerOnly("signIn", "page", "notFound"),
    // Without the confirmation the owner's withdrawal is refused; nothing is recorded.
    post: ownerOnly("signIn", "refused", "notFound"),
    form: () => ({ confirm: "" }),
  },
  {
    route: "admin/pagos/:paymentId",
    url: ({ paymentId }) => `/admin/pagos/${paymentId}`,
    get: financeAndAdmin("page"),
    // A refund without a reason is refused; nothing changes.
    post: financeAndAdmin("refused"),
    form: () => ({ intent: "refund", reason: "", confirm: "" }),
    endsSessions: true,
  },
  {
    route: "admin/clientes/:customerId",
    url: ({ customerId }) => `/admin/clientes/${customerId}`,
    // Every staff role reads customers; each sees the sections of its role (decision 052).
    get: anyStaff("page"),
    post: everyone("noAction"),
    endsSessions: true,
  },
  {
    route: "admin/usuarios/:userId/rol",
    // The confirmation of a role change (decision 054): only who may change roles reaches the
    // lookup, which finds no such account.
    url: () => "/admin/usuarios/no-existe/rol?rol=admin",
    get: adminOnly("notFound"),
    post: everyone("noAction"),
    endsSessions: true,
  },
  {
    route: "admin/facturas/:invoiceId",
    url: ({ invoiceId }) => `/admin/facturas/${invoiceId}`,
    get: financeAndAdmin("ok"),
    post: everyone("noAction"),
    endsSessions: true,
  },
  {
    route: "soporte/adjuntos/:attachmentId",
    url: ({ attachmentId }) => `/soporte/adjuntos/${attachmentId}`,
    // The ticket's owner and the staff who read tickets download it; for anyone else (finance
    // too) the file does not exist.
    get: {
      anonymous: "notFound",
      customer: "ok",
      otherCustomer: "notFound",
      support: "ok",
      finance: "notFound",
      admin: "ok",
    },
    post: everyone("noAction"),
  },
  {
    route: "admin/tickets/:ticketId",
    url: ({ ticketId }) => `/admin/tickets/${ticketId}`,
    get: supportAndAdmin("page"),
    // The owner is no staff either; a too-short reply is refused, nothing changes.
    post: supportAndAdmin("refused"),
    form: () => ({ intent: "reply", message: "corto" }),
    endsSessions: true,
  },
  {
    route: "cerrar-sesion",
    url: () => "/cerrar-sesion",
    get: everyone({ redirect: "/" }),
    post: everyone({ redirect: "/" }),
    endsSessions: true,
  },
];

/** Why `response` is not `expected`, or undefined when it is. */
export async function outcomeProblem(
  response: APIResponse,
  expected: Outcome,
): Promise<string | undefined> {
  const status = response.status();
  const location = response.headers()["location"] ?? "";
  const path = location ? new URL(location, "http://x").pathname : "";
  const seen = `${status}${location ? ` → ${location}` : ""}`;
  const redirectsTo = (target: string) => status >= 300 && status < 400 && path === target;
  const fits =
    typeof expected === "object"
      ? redirectsTo(expected.redirect)
      : {
          page:
            status === 200 && (response.headers()["content-type"] ?? "").startsWith("text/html"),
          ok: status >= 200 && status < 300,
          signIn: redirectsTo("/login-cliente"),
          adminSignIn: redirectsTo("/login"),
          unauthorised: status === 401 || status === 403,
          refused: [400, 409, 422, 429].includes(status),
          notFound: status === 404,
          noAction: status === 405,
        }[expected];
  return fits ? undefined : `expected ${JSON.stringify(expected)}, got ${seen}`;
}
