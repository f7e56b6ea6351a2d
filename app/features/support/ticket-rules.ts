import type { MessageBook } from "~/platform/forms/form-answer";
import { z } from "~/platform/validation/zod";

/**
 * Tickets (spec sections 3, 4 "Ticket status" and 7): categories, priorities, statuses, the rules
 * of the forms and their Spanish messages, shared by the browser and the server.
 */
export const TICKET_LIMITS = {
  subjectMin: 5,
  subjectMax: 150,
  messageMin: 10,
  messageMax: 5000,
} as const;

/** Files of one message: PNG, JPEG, WebP, PDF or plain text, each type found from the content. */
export const ATTACHMENT_LIMITS = { maxFiles: 3, maxBytes: 5 * 1024 * 1024 } as const;
/** The files of all of one customer's messages together, in MB (decision 033). */
export const ATTACHMENT_QUOTA_MB = 50;

/** What the file picker offers; the server decides from the bytes, whatever the name says. */
export const attachmentAccept =
  ".png,.jpg,.jpeg,.webp,.pdf,.txt,image/png,image/jpeg,image/webp,application/pdf,text/plain";

/** Codes use underscores; people read them with spaces. */
export const ticketCategories = [
  "consulta_tecnica",
  "facturacion",
  "incidencia_servicio",
  "solicitud_cambio",
  "otro",
] as const;
export type TicketCategory = (typeof ticketCategories)[number];

/** The codes as people read them: underscores as spaces (spec), with their Spanish accents. */
const categoryLabels: Record<TicketCategory, string> = {
  consulta_tecnica: "Consulta técnica",
  facturacion: "Facturación",
  incidencia_servicio: "Incidencia servicio",
  solicitud_cambio: "Solicitud cambio",
  otro: "Otro",
};

export function categoryLabel(code: string): string {
  const known = categoryLabels[code as TicketCategory];
  if (known) return known;
  const spaced = code.replaceAll("_", " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export const ticketPriorities = ["urgent", "high", "medium", "low"] as const;
export type TicketPriority = (typeof ticketPriorities)[number];

const priorityLabels: Record<TicketPriority, string> = {
  urgent: "Urgente",
  high: "Alta",
  medium: "Media",
  low: "Baja",
};

/** Spec: an unknown priority shows as medium. */
export function priorityLabel(priority: string): string {
  return priorityLabels[priority as TicketPriority] ?? priorityLabels.medium;
}

export const ticketStatuses = ["open", "in_progress", "resolved", "closed"] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

const statusLabels: Record<TicketStatus, string> = {
  open: "Abierto",
  in_progress: "En curso",
  resolved: "Resuelto",
  closed: "Cerrado",
};

export function ticketStatusLabel(status: string): string {
  return statusLabels[status as TicketStatus] ?? statusLabels.open;
}

/** Spec: active = open or in progress; resolved counts resolved and closed. */
export const activeTicketStatuses = ["open", "in_progress"] as const satisfies TicketStatus[];
export const finishedTicketStatuses = ["resolved", "closed"] as const satisfies TicketStatus[];

/** Who wrote a message, as each reader reads it: the customer reads 'Tú' for their own. */
const authorLabels = {
  customer: { customer: "Tú", staff: "Equipo de soporte" },
  staff: { customer: "Cliente", staff: "Equipo de soporte" },
} as const;

export type TicketReader = keyof typeof authorLabels;

export function authorLabel(author: "customer" | "staff", reader: TicketReader): string {
  return authorLabels[reader][author];
}

/** A closed ticket takes no more messages; a resolved one may be reopened by writing. */
export const acceptsMessages = (status: string) => status !== "closed";

export const supportMessages = {
  subjectTooShort: {
    title: "Asunto demasiado corto",
    description: `El asunto debe tener al menos ${TICKET_LIMITS.subjectMin} caracteres.`,
  },
  subjectTooLong: {
    title: "Asunto demasiado largo",
    description: `El asunto no puede superar los ${TICKET_LIMITS.subjectMax} caracteres.`,
  },
  categoryRequired: {
    title: "Categoría requerida",
    description: "Por favor, elige una categoría.",
  },
  priorityInvalid: { title: "Prioridad no válida", description: "Por favor, elige una prioridad." },
  statusInvalid: { title: "Estado no válido", description: "Por favor, elige un estado." },
  messageTooShort: {
    title: "Mensaje demasiado corto",
    description: `El mensaje debe tener al menos ${TICKET_LIMITS.messageMin} caracteres.`,
  },
  messageTooLong: {
    title: "Mensaje demasiado largo",
    description: `El mensaje no puede superar los ${TICKET_LIMITS.messageMax} caracteres.`,
  },
  purchaseUnknown: {
    title: "Compra no encontrada",
    description: "Elige una de tus compras o deja el campo vacío.",
  },
  ticketCreated: { title: "Ticket creado", description: "Te responderemos en menos de 24 horas." },
  messageSent: { title: "Mensaje enviado" },
  ticketResolved: { title: "Ticket marcado como resuelto" },
  ticketClosed: {
    title: "Ticket cerrado",
    description: "Este ticket está cerrado. Si necesitas más ayuda, abre un ticket nuevo.",
  },
  ticketUpdated: { title: "Ticket actualizado" },
  replySent: { title: "Respuesta enviada", description: "Hemos avisado al cliente por email." },
  saveFailed: { title: "Error al guardar", description: "Por favor, inténtalo de nuevo." },
  /** Names the refused file (the error's detail). */
  attachmentType: ({ detail }: { detail?: string }) => ({
    title: "Tipo de archivo no permitido",
    description: `Solo se admiten PNG, JPEG, WebP, PDF y texto. ${detail?.trim() ? `«${detail.trim()}»` : "El archivo"} no se ha enviado.`,
  }),
  attachmentTooBig: {
    title: "Archivo demasiado grande",
    description: "Cada archivo puede ocupar como máximo 5 MB.",
  },
  tooManyAttachments: {
    title: "Demasiados archivos",
    description: `Puedes adjuntar hasta ${ATTACHMENT_LIMITS.maxFiles} archivos por mensaje.`,
  },
  tooManyTickets: {
    title: "Demasiados tickets",
    description: "Has creado varios tickets seguidos. Espera unos minutos e inténtalo de nuevo.",
  },
  tooManyMessages: {
    title: "Demasiados mensajes",
    description:
      "Has enviado muchos mensajes en la última hora. Los anteriores ya nos han llegado; espera un rato antes de enviar otro.",
  },
  attachmentQuota: {
    title: "Sin espacio para más archivos",
    description: `Tus tickets ya guardan casi ${ATTACHMENT_QUOTA_MB} MB de archivos, el máximo por cliente. El mensaje no se ha enviado: envíalo sin archivos o con archivos más pequeños.`,
  },
} satisfies MessageBook;

export type SupportMessage = keyof typeof supportMessages;

const stop = (error: SupportMessage) => ({ error, abort: true });

/** A NUL byte is never typed text, and PostgreSQL cannot store one: it is dropped. */
const withoutNul = () => z.overwrite((value: string) => value.replaceAll("\u0000", ""));

const messageField = z
  .string(stop("messageTooShort"))
  .check(
    withoutNul(),
    z.trim(),
    z.minLength(TICKET_LIMITS.messageMin, stop("messageTooShort")),
    z.maxLength(TICKET_LIMITS.messageMax, stop("messageTooLong")),
  );

export const newTicketSchema = z.object({
  subject: z
    .string(stop("subjectTooShort"))
    .check(
      withoutNul(),
      z.trim(),
      z.minLength(TICKET_LIMITS.subjectMin, stop("subjectTooShort")),
      z.maxLength(TICKET_LIMITS.subjectMax, stop("subjectTooLong")),
    ),
  category: z.enum(ticketCategories, { error: "categoryRequired" }),
  priority: z._default(z.enum(ticketPriorities, { error: "priorityInvalid" }), "medium"),
  message: messageField,
  /** Empty for none; otherwise one of the customer's purchases (checked on the server). */
  purchaseId: z._default(z.string(), ""),
});
export type NewTicket = z.output<typeof newTicketSchema>;

export const ticketMessageSchema = z.object({ message: messageField });

export const ticketChangeSchema = z.object({
  status: z.enum(ticketStatuses, { error: "statusInvalid" }),
  priority: z.enum(ticketPriorities, { error: "priorityInvalid" }),
});

/** TK-2026-000123: the year and the year's sequence number. */
export function formatTicketNumber(year: number, sequence: number): string {
  return `TK-${year}-${String(sequence).padStart(6, "0")}`;
}

/** The id of a message in its conversation: where a new message's page opens. */
export function messageAnchor(messageId: string): string {
  return `mensaje-${messageId}`;
}
