/** Each legal page's title by its slug (/{slug}): its heading, and its name wherever it is listed. */
export const legalTitles = {
  terminos: "Términos y Condiciones",
  privacidad: "Política de Privacidad",
  cookies: "Política de Cookies",
  "aviso-legal": "Aviso Legal",
} as const;
