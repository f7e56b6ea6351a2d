import { desc, eq } from "drizzle-orm";
import type { Viewer } from "~/features/accounts/session.server";
import { pseudonymiseBilling } from "~/features/payments/billing-erasure.server";
import { purchaseTotalsOf } from "~/features/payments/purchases.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { profiles, purchases, userActivityLog, users, verifications } from "~/platform/db/schema";

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
 * account, the profile, the purchases, the activity and the totals.
 */
export async function exportAccountData(viewer: Viewer, now = new Date()) {
  const db = getDb();
  const [[profile], history, activity, totals] = await Promise.all([
    db.select().from(profiles).where(eq(profiles.id, viewer.id)),
    db
      .select()
      .from(purchases)
      .where(eq(purchases.userId, viewer.id))
      .orderBy(desc(purchases.createdAt)),
    db
      .select()
      .from(userActivityLog)
      .where(eq(userActivityLog.userId, viewer.id))
      .orderBy(desc(userActivityLog.createdAt)),
    purchaseTotalsOf(viewer.id),
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
    },
    compras: history.map((purchase) => ({
      referencia: purchase.id,
      servicio: purchase.serviceName,
      importe: purchase.price / 100,
      moneda: purchase.currency,
      estado: purchase.status,
      creadaEl: purchase.createdAt.toISOString(),
      completadaEl: purchase.completedAt?.toISOString() ?? null,
    })),
    actividad: activity.map((entry) => ({
      tipo: entry.activityType,
      descripcion: entry.description,
      fecha: entry.createdAt.toISOString(),
    })),
    estadisticas: {
      compras: totals.purchases,
      comprasCompletadas: totals.completed,
      totalGastado: totals.spentCents / 100,
    },
  };
}

/**
 * GDPR erasure: the user row goes, and with it (by cascade) the profile, sessions, sign-in
 * methods and roles; pending reset links go too. Purchases and activity stay for the accounts
 * the law requires, no longer linked to anyone (their user id becomes null); the payments and
 * customer totals stay too, with the e-mail replaced by a pseudonym and the name dropped
 * (decision 012).
 */
export async function deleteAccountData(viewer: Viewer): Promise<void> {
  await getDb().transaction(async (tx) => {
    // First, while the purchases still name the user.
    await pseudonymiseBilling(tx, { userId: viewer.id, email: viewer.email });
    await tx.delete(verifications).where(eq(verifications.value, viewer.id));
    await tx.delete(users).where(eq(users.id, viewer.id));
  });
}
