import { serviceByPath, serviceBySlug } from "~/features/catalogue/services";
import { legalTitles } from "~/features/legal/legal-titles";

/** The site's own pages as staff call them; services and legal pages are named by their owners. */
const pageNames: Record<string, string> = {
  "/": "Inicio",
  "/precios": "Precios",
  "/contacto": "Contacto",
  "/registro": "Crear cuenta",
  "/login-cliente": "Iniciar sesión",
  "/recuperar-password": "Recuperar contraseña",
  "/actualizar-password": "Nueva contraseña",
  "/verificar-email": "Verificación del email",
  "/perfil": "Mi perfil",
  "/mi-cuenta": "Mi Cuenta",
  "/pago-exitoso": "Pago completado",
  "/pago-simulado": "Pago simulado",
};

/**
 * What Analítica lists a counted path (analytics/analytics-rules.ts `trackedPath`) as: the page's name, or
 * the path itself for anything else (an address that does not exist, say), so nothing is hidden.
 */
export function pageNameOf(path: string): string {
  const legal = legalTitles[path.slice(1) as keyof typeof legalTitles];
  return pageNames[path] ?? serviceByPath(path)?.name ?? legal ?? purchasePageName(path) ?? path;
}

/** The purchase page without JavaScript (`/comprar/:servicio`), by its service. */
function purchasePageName(path: string): string | undefined {
  const slug = /^\/comprar\/([^/]+)$/.exec(path)?.[1];
  const service = slug ? serviceBySlug(slug) : undefined;
  return service && `Comprar ${service.name}`;
}
