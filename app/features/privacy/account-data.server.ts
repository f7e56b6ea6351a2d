import { deliveryStatusLabel } from "~/features/payments/after-sale-status";
import { asc, desc, eq, inArray } from "drizzle-orm";
import { userStatsOf } from "~/features/customer-area/account-overview.server";
import { recordStaffAction } from "~/features/audit/audit.server";
import { isLastAdministrator } from "~/features/identity/administrators.server";
import { staffRoleOf, type Viewer } from "~/features/identity/session.server";
import { pseudonymiseBilling } from "~/features/payments/billing-erasure.server";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import {
  authorLabel,
  categoryLabel,
  priorityLabel,
  ticketStatusLabel,
} from "~/features/support/ticket-rules";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import {
  passkeys,
  profiles,
  purchases,
  sessions,
  supportTickets,
  ticketMessages,
  userActivityLog,
  users,
  verifications,
} from "~/platform/db/schema";

/** The file name of an export: the brand, then the moment (spec: prefix and ISO timestamp). */
export function exportFileName(now: Date): string {
  const brand = getConfig()
    .company.brandName.normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${brand}-mis-datos-${now.toISOString().replace(/[:.]/g, "-")}.json`;
}

/**
 * Everything the site keeps about the signed-in customer (GDPR access and portability): the
 * account, the profile, the purchases, the support tickets with their conversations, the activity
 * and the totals. Keys and states are in Spanish, as the customer reads them on the site.
 */
export async function exportAccountData(viewer: Viewer, now = new Date()) {
  const db = getDb();
  const [[profile], history, tickets, activity, stats, security] = await Promise.all([
    db.select().from(profiles).where(eq(profiles.id, viewer.id)),
    db
      .select()
      .from(purchases)
      .where(eq(purchases.userId, viewer.id))
      .orderBy(desc(purchases.createdAt)),
    ticketsWithMessages(viewer.id),
    db
      .select()
      .from(userActivityLog)
      .where(eq(userActivityLog.userId, viewer.id))
      .orderBy(desc(userActivityLog.createdAt)),
    userStatsOf(viewer.id),
    signInSecurityOf(viewer.id),
  ]);
  return {
    exportadoEl: now.toISOString(),
    cuenta: {
      email: viewer.email,
      emailVerificado: viewer.emailVerified,
      creadaEl: viewer.createdAt,
    },
    perfil: {
      nombreCompleto: profile?.fullName ?? null,
      telefono: profile?.phone ?? null,
      empresa: profile?.company ?? null,
      biografia: profile?.bio ?? null,
      nifNie: profile?.taxId ?? null,
      nombreFacturacion: profile?.billingName ?? null,
      direccionFacturacion: profile?.billingAddress ?? null,
    },
    compras: history.map((purchase) => ({
      referencia: purchase.id,
      servicio: purchase.serviceName,
      importe: purchase.price / 100,
      moneda: purchase.currency,
      estado: purchaseStatusLabel(purchase.status),
      creadaEl: purchase.createdAt.toISOString(),
      completadaEl: purchase.completedAt?.toISOString() ?? null,
      entrega: deliveryStatusLabel(purchase.deliveryStatus),
      inicioInmediatoAceptadoEl: purchase.immediateStartConsentAt?.toISOString() ?? null,
      desistimientoEl: purchase.withdrawalRequestedAt?.toISOString() ?? null,
    })),
    tickets: tickets.map(({ ticket, messages }) => ({
      numero: ticket.ticketNumber,
      asunto: ticket.subject,
      categoria: categoryLabel(ticket.category),
      prioridad: priorityLabel(ticket.priority),
      estado: ticketStatusLabel(ticket.status),
      compra: ticket.purchaseId,
      creadoEl: ticket.createdAt.toISOString(),
      actualizadoEl: ticket.updatedAt.toISOString(),
      cerradoEl: ticket.closedAt?.toISOString() ?? null,
      mensajes: messages.map((message) => ({
        autor: authorLabel(message.author, "customer"),
        texto: message.body,
        fecha: message.createdAt.toISOString(),
      })),
    })),
    actividad: activity.map((entry) => ({
      tipo: entry.activityType,
      descripcion: entry.description,
      fecha: entry.createdAt.toISOString(),
    })),
    seguridad: security,
    estadisticas: {
      compras: stats.totalPurchases,
      comprasCompletadas: stats.completedPurchases,
      totalGastado: stats.totalSpentCents / 100,
      ticketsActivos: stats.activeTickets,
      ticketsResueltos: stats.resolvedTickets,
    },
  };
}

/**
 * How the account signs in, as its owner sees it on the security page: whether it asks for a
 * code, its passkeys and its open sessions with their device and address. Never a secret, a key
 * or a session token.
 */
async function signInSecurityOf(userId: string) {
  const db = getDb();
  const [[user], keys, open] = await Promise.all([
    db.select({ twoFactor: users.twoFactorEnabled }).from(users).where(eq(users.id, userId)),
    db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt)),
    db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.createdAt)),
  ]);
  return {
    verificacionEnDosPasos: user?.twoFactor ?? false,
    llavesDeAcceso: keys.map((key) => ({
      nombre: key.name,
      creadaEl: key.createdAt?.toISOString() ?? null,
      ultimoUsoEl: key.lastUsedAt?.toISOString() ?? null,
    })),
    sesiones: open.map((session) => ({
      navegador: session.userAgent,
      direccion: session.ipAddress,
      iniciadaEl: session.createdAt.toISOString(),
      ultimaActividadEl: (session.lastSeenAt ?? session.createdAt).toISOString(),
      caducaEl: session.expiresAt.toISOString(),
    })),
  };
}

/** A customer's tickets, newest first, each with its conversation in order. */
async function ticketsWithMessages(userId: string) {
  const db = getDb();
  const tickets = await db
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(desc(supportTickets.createdAt));
  if (tickets.length === 0) return [];
  const messages = await db
    .select()
    .from(ticketMessages)
    .where(
      inArray(
        ticketMessages.ticketId,
        tickets.map((ticket) => ticket.id),
      ),
    )
    .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id));
  return tickets.map((ticket) => ({
    ticket,
    messages: messages.filter((message) => message.ticketId === ticket.id),
  }));
}

/**
 * GDPR erasure: the user row goes, and with it (by cascade) the profile, sessions, sign-in
 * methods, roles, and the support tickets with their messages and attachments; pending reset links go too. Purchases and activity stay for the accounts
 * the law requires, no longer linked to anyone (their user id becomes null); the payments and
 * customer totals stay too, with the e-mail replaced by a pseudonym and the name dropped
 * (decision 012). A staff account's deletion is written to the audit log in the same
 * transaction; the last administrator's is refused, as a role change would be (decision 063).
 */
export async function deleteAccountData(
  viewer: Viewer,
  from: { clientAddress: string | null; userAgent: string | null } = {
    clientAddress: null,
    userAgent: null,
  },
): Promise<{ ok: true } | { ok: false; reason: "lastAdministrator" }> {
  return getDb().transaction(async (tx) => {
    if (await isLastAdministrator(tx, viewer.id)) return { ok: false, reason: "lastAdministrator" };
    const role = await staffRoleOf(viewer.id, tx);
    if (role)
      await recordStaffAction(tx, {
        actor: { id: viewer.id, email: viewer.email, role, ...from },
        action: "account.deleted",
        target: viewer.id,
        details: { email: viewer.email, rol: role },
      });
    // First, while the purchases still name the user.
    await pseudonymiseBilling(tx, { userId: viewer.id, email: viewer.email });
    await tx.delete(verifications).where(eq(verifications.value, viewer.id));
    await tx.delete(users).where(eq(users.id, viewer.id));
    return { ok: true };
  });
}
