/** Mi Cuenta's tabs (spec section 2): the tab lives in the URL, `?tab=…`, Resumen by default. */
export const accountTabs = [
  { id: "resumen", label: "Resumen" },
  { id: "compras", label: "Compras" },
  { id: "soporte", label: "Soporte" },
  { id: "configuracion", label: "Configuración" },
] as const;
export type AccountTab = (typeof accountTabs)[number]["id"];

/** The tab a URL asks for; anything else is Resumen. */
export function accountTabOf(url: URL): AccountTab {
  const asked = url.searchParams.get("tab");
  return accountTabs.find((tab) => tab.id === asked)?.id ?? "resumen";
}

export function accountTabPath(tab: AccountTab): string {
  return tab === "resumen" ? "/mi-cuenta" : `/mi-cuenta?tab=${tab}`;
}

/** What Mi Cuenta says when part of it could not be read (spec section 8). */
export const accountLoadMessages = {
  purchasesFailed: {
    title: "Error al cargar compras",
    description: "Recarga la página para intentarlo de nuevo.",
  },
  ticketsFailed: {
    title: "Error al cargar los tickets",
    description: "Recarga la página para intentarlo de nuevo.",
  },
} as const;
