/**
 * The service catalogue: the one source of truth for every service, its price and its copy.
 * Pages, the contact dropdown, checkout and structured data all read from here.
 */

/** Service codes stored with contact enquiries (spec section 3). */
export const serviceCodes = [
  "asistencia-digital",
  "ia",
  "desarrollo-web",
  "ciberseguridad",
  "reputacion-digital",
  "otro",
] as const;

export type ServiceCode = (typeof serviceCodes)[number];

/**
 * What is sold (decision 078): delivered work, or a consultation booked as time in the calendar,
 * whose length the booking takes.
 */
export type SaleKind = { kind: "service" } | { kind: "consultation"; durationMinutes: number };

export type Service = SaleKind & {
  /** Stable id of the price item (spec: 1-6). */
  id: number;
  /** Anchor on /precios and key for the page. */
  slug: string;
  code: ServiceCode;
  name: string;
  /** Own page, or undefined when the service is only sold from /precios. */
  path: string | undefined;
  /** One-off price in euro cents; currency is always EUR. */
  priceCents: number;
  shortDescription: string;
  /** The four bullet points of the price card. */
  priceFeatures: readonly [string, string, string, string];
  /** Service page copy (only for services with their own page). */
  page?: {
    headline: string;
    description: string;
    features: readonly [string, string, string, string, string, string];
    /** What the customer gets and when (the price is added from priceCents). */
    promise: string;
  };
  /** Environment variable holding the Stripe price id. */
  stripePriceEnv: string;
};

export const services: readonly Service[] = [
  {
    id: 1,
    kind: "consultation",
    durationMinutes: 60,
    slug: "consultoria-puntual",
    code: "otro",
    name: "Consultoría Puntual",
    path: undefined,
    priceCents: 7_900,
    shortDescription: "1 hora de consultoría con un experto y un diagnóstico completo de tu caso.",
    priceFeatures: [
      "1 hora de videollamada con un experto",
      "Diagnóstico completo de tu situación",
      "Informe con recomendaciones por escrito",
      "Descuento si contratas otro servicio",
    ],
    stripePriceEnv: "STRIPE_PRICE_CONSULTORIA_PUNTUAL",
  },
  {
    id: 2,
    kind: "service",
    slug: "asistencia-digital",
    code: "asistencia-digital",
    name: "Asistencia Informática",
    path: "/asistencia-digital",
    priceCents: 14_900,
    shortDescription:
      "Soporte técnico remoto para equipos, redes, correo y software de tu negocio o tu hogar.",
    priceFeatures: [
      "Resolución en un máximo de 5 días",
      "Soporte 24/7 por correo y chat",
      "Diagnóstico remoto de equipos",
      "Configuración de correo y copias de seguridad",
    ],
    page: {
      headline: "Asistencia informática que resuelve, no que aplaza",
      description:
        "Técnicos certificados que se conectan en remoto para solucionar averías, configurar equipos y dejar tu tecnología funcionando sin que tengas que desplazarte. Te explicamos qué ha pasado y cómo evitar que se repita.",
      features: [
        "Diagnóstico y reparación remota de ordenadores Windows, macOS y Linux",
        "Configuración de correo profesional, impresoras y redes Wi-Fi",
        "Eliminación de virus y optimización del rendimiento",
        "Copias de seguridad automáticas y recuperación de archivos",
        "Instalación y actualización de software y licencias",
        "Soporte 24/7 con seguimiento de cada incidencia",
      ],
      promise: "Incidencia resuelta en un máximo de 5 días, con soporte 24/7.",
    },
    stripePriceEnv: "STRIPE_PRICE_ASISTENCIA_DIGITAL",
  },
  {
    id: 3,
    kind: "service",
    slug: "reputacion-digital",
    code: "reputacion-digital",
    name: "Reputación Digital",
    path: "/reputacion-digital",
    priceCents: 29_900,
    shortDescription:
      "Auditoría de tu presencia online y un plan para mejorar lo que se dice de ti en internet.",
    priceFeatures: [
      "Auditoría de reputación en 7-10 días",
      "Análisis de reseñas y menciones",
      "Plan de acción personalizado",
      "Guía de respuesta a reseñas negativas",
    ],
    page: {
      headline: "Controla lo que internet dice de tu marca",
      description:
        "Analizamos buscadores, redes sociales y plataformas de reseñas para saber cómo te ven tus clientes. Después te entregamos un plan concreto para reforzar lo positivo y gestionar lo negativo.",
      features: [
        "Auditoría completa de tu presencia en buscadores y redes",
        "Análisis de reseñas en Google, Trustpilot y portales del sector",
        "Detección de contenidos negativos o desactualizados",
        "Plan de acción priorizado con plazos y responsables",
        "Plantillas de respuesta a reseñas y comentarios",
        "Recomendaciones de contenido para posicionar lo positivo",
      ],
      promise: "Auditoría en 7-10 días más un plan de acción.",
    },
    stripePriceEnv: "STRIPE_PRICE_REPUTACION_DIGITAL",
  },
  {
    id: 4,
    kind: "service",
    slug: "ciberseguridad",
    code: "ciberseguridad",
    name: "Ciberseguridad",
    path: "/ciberseguridad",
    priceCents: 44_900,
    shortDescription:
      "Auditoría de seguridad de tus sistemas y corrección de las vulnerabilidades críticas.",
    priceFeatures: [
      "Auditoría completa en 10-15 días",
      "Corrección de fallos críticos",
      "Informe de riesgos priorizado",
      "Recomendaciones de buenas prácticas",
    ],
    page: {
      headline: "Protege tu negocio antes de que sea tarde",
      description:
        "Revisamos tu web, tus equipos y tus cuentas como lo haría un atacante, te explicamos los riesgos en un lenguaje claro y corregimos los fallos críticos para que tu información y la de tus clientes esté a salvo.",
      features: [
        "Auditoría de vulnerabilidades de web, servidores y red",
        "Revisión de contraseñas, accesos y autenticación en dos pasos",
        "Corrección de los fallos críticos detectados",
        "Configuración segura de correo contra suplantación (SPF, DKIM, DMARC)",
        "Plan de copias de seguridad y respuesta ante incidentes",
        "Informe final con riesgos priorizados y próximos pasos",
      ],
      promise: "Auditoría completa en 10-15 días más la corrección de fallos críticos.",
    },
    stripePriceEnv: "STRIPE_PRICE_CIBERSEGURIDAD",
  },
  {
    id: 5,
    kind: "service",
    slug: "inteligencia-artificial",
    code: "ia",
    name: "Consultoría en IA",
    path: "/inteligencia-artificial",
    priceCents: 59_900,
    shortDescription:
      "Identificamos dónde la inteligencia artificial ahorra tiempo en tu empresa y la ponemos en marcha.",
    priceFeatures: [
      "Implementación básica en 15-20 días",
      "Análisis de procesos automatizables",
      "Asistente de IA adaptado a tu negocio",
      "Formación para tu equipo",
    ],
    page: {
      headline: "Inteligencia artificial aplicada a tu día a día",
      description:
        "Estudiamos tus procesos, elegimos las herramientas de IA que de verdad aportan valor y las integramos con tu forma de trabajar, cuidando la privacidad de tus datos y formando a tu equipo para sacarles partido.",
      features: [
        "Diagnóstico de procesos con potencial de automatización",
        "Selección de herramientas de IA según tu presupuesto",
        "Asistente conversacional entrenado con tu documentación",
        "Automatización de tareas repetitivas y documentos",
        "Uso responsable de datos conforme al RGPD",
        "Sesión de formación práctica para tu equipo",
      ],
      promise: "Implementación básica de IA en 15-20 días.",
    },
    stripePriceEnv: "STRIPE_PRICE_CONSULTORIA_IA",
  },
  {
    id: 6,
    kind: "service",
    slug: "desarrollo-web",
    code: "desarrollo-web",
    name: "Desarrollo Web",
    path: "/desarrollo-web",
    priceCents: 79_900,
    shortDescription:
      "Una web profesional, rápida y optimizada para buscadores, lista para captar clientes.",
    priceFeatures: [
      "Web de 5 a 8 páginas en 20-30 días",
      "Diseño adaptado a móviles",
      "3 meses de hosting gratis",
      "SEO básico y formulario de contacto",
    ],
    page: {
      headline: "Una web que trabaja para tu negocio",
      description:
        "Diseñamos y desarrollamos tu web a medida: rápida, accesible y fácil de actualizar. Nos ocupamos del dominio, el alojamiento y la puesta en marcha para que tú solo tengas que atender a tus nuevos clientes.",
      features: [
        "Diseño a medida de 5 a 8 páginas",
        "Adaptada a móviles, tabletas y ordenadores",
        "Optimización SEO básica y alta en Google",
        "Formulario de contacto y enlaces a redes sociales",
        "Certificado SSL y 3 meses de hosting gratis",
        "Formación para que actualices tus contenidos",
      ],
      promise: "Web de 5 a 8 páginas en 20-30 días, con 3 meses de hosting gratis.",
    },
    stripePriceEnv: "STRIPE_PRICE_DESARROLLO_WEB",
  },
];

/** Order of the cards on the home page (spec section 2). */
export const homeServiceOrder = [
  "consultoria-puntual",
  "asistencia-digital",
  "inteligencia-artificial",
  "desarrollo-web",
  "ciberseguridad",
  "reputacion-digital",
] as const;

/** The five codes offered by the contact form ('otro' is stored, never offered). */
export const contactServiceCodes = [
  "asistencia-digital",
  "ia",
  "desarrollo-web",
  "ciberseguridad",
  "reputacion-digital",
] as const satisfies readonly ServiceCode[];

const serviceCodeLabels: Record<ServiceCode, string> = {
  "asistencia-digital": "Asistencia Informática",
  ia: "Consultoría en IA",
  "desarrollo-web": "Desarrollo Web",
  ciberseguridad: "Ciberseguridad",
  "reputacion-digital": "Reputación Digital",
  otro: "Otro servicio",
};

/** Label of a stored service code; unknown codes are shown as they are. */
export function serviceCodeLabel(code: string): string {
  return isServiceCode(code) ? serviceCodeLabels[code] : code;
}

export function isServiceCode(code: string): code is ServiceCode {
  return (serviceCodes as readonly string[]).includes(code);
}

export function serviceBySlug(slug: string): Service | undefined {
  return services.find((service) => service.slug === slug);
}

export function serviceById(id: number): Service | undefined {
  return services.find((service) => service.id === id);
}

export function serviceByPath(path: string): Service | undefined {
  return services.find((service) => service.path === path);
}

/** Services in the home-page order. */
export function servicesForHome(): Service[] {
  return homeServiceOrder.map((slug) => serviceBySlug(slug)).filter((s) => s !== undefined);
}

/** Services with their own page, in the home-page order. */
/** The services booked as time in the calendar, each with its length (decision 078). */
export function bookableServices(): (Service & { kind: "consultation" })[] {
  return services.filter((service) => service.kind === "consultation");
}

export function servicesWithPages(): Service[] {
  return servicesForHome().filter((service) => service.path !== undefined);
}

/** Where a card of the service links: its page, or its anchor on /precios. */
export function serviceHref(service: Service): string {
  return service.path ?? `/precios#${service.slug}`;
}

/**
 * Digits as es-ES writes them: a point between thousands from five digits on (1500, 12.500).
 * Done by hand because the first Intl.NumberFormat a browser builds costs tens of
 * milliseconds, and every page shows a price while it hydrates.
 */
function spanishDigits(whole: number): string {
  const digits = String(whole);
  return digits.length < 5 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, ".");
}

/**
 * Whole euros without decimals, as the site shows prices (149€); cents when there are any
 * (149,50€), or always with `cents: "always"` (the admin's revenue: 149,00€).
 */
export function formatPrice(
  priceCents: number,
  { cents: showCents = "when-any" }: { cents?: "when-any" | "always" } = {},
): string {
  const sign = priceCents < 0 ? "-" : "";
  const cents = Math.abs(Math.round(priceCents));
  const whole = spanishDigits(Math.floor(cents / 100));
  const rest = cents % 100;
  const withCents = rest !== 0 || showCents === "always";
  return `${sign}${withCents ? `${whole},${String(rest).padStart(2, "0")}` : whole}€`;
}

/** The price line of a service page: 'Desde solo 149€'. */
export function priceFromText(service: Service): string {
  return `Desde solo ${formatPrice(service.priceCents)}`;
}

/** Price as a decimal string for structured data and payment providers: 149.00 */
export function priceAmount(priceCents: number): string {
  return (priceCents / 100).toFixed(2);
}
