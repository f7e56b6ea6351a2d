import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { exportAccountData, exportFileName } from "~/features/privacy/account-data.server";
import { getConfig } from "~/platform/config.server";
import { openTicket } from "~/features/support/customer-tickets.server";
import {
  profiles,
  purchases,
  sessions,
  supportTickets,
  ticketAttachments,
  ticketMessages,
  users,
} from "~/platform/db/schema";
import { takeToast } from "~/platform/http/toast.server";
import { action as deleteAccount } from "~/routes/mi-cuenta-eliminar";
import { loader as exportLoader } from "~/routes/mi-cuenta-exportar";
import { formPost, signedInCustomer, viewerOf } from "../support/customer-session";
import { insertPurchase } from "../support/purchases";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const PASSWORD = "contraseña-de-cliente";

/** A verified, signed-in customer with a profile and one completed purchase. */
async function customer(email: string) {
  const { cookie, userId } = await signedInCustomer(email, {
    clientAddress: "192.0.2.30",
    password: PASSWORD,
  });
  await database.db
    .update(profiles)
    .set({ fullName: "Ana García", phone: "+34 600 000 000" })
    .where(eq(profiles.id, userId));
  await insertPurchase(database.db, {
    userId,
    status: "completed",
    provider: "simulated",
    completedAt: new Date(),
  });
  return { cookie, userId };
}

describe("the data export", () => {
  it("holds the account, profile, purchases and totals of the customer, and no one else's", async () => {
    const ana = await customer("exporta@example.com");
    await customer("otra-persona@example.com");
    const data = await exportAccountData((await viewerOf(ana.cookie))!);
    expect(data.cuenta).toMatchObject({ email: "exporta@example.com", emailVerificado: true });
    expect(data.perfil).toEqual({
      nombreCompleto: "Ana García",
      telefono: "+34 600 000 000",
      empresa: null,
      biografia: null,
      nifNie: null,
      nombreFacturacion: null,
      direccionFacturacion: null,
    });
    expect(data.compras).toHaveLength(1);
    expect(data.compras[0]).toMatchObject({
      servicio: "Ciberseguridad",
      importe: 449,
      estado: "Completado",
      entrega: "Pendiente de inicio",
      desistimientoEl: null,
    });
    expect(data.estadisticas).toEqual({
      compras: 1,
      comprasCompletadas: 1,
      totalGastado: 449,
      ticketsActivos: 0,
      ticketsResueltos: 0,
    });
    expect(JSON.stringify(data)).not.toContain("otra-persona@example.com");
  });

  it("holds how the account signs in: its sessions with device and address, never a token", async () => {
    const ana = await customer("sesiones-exporta@example.com");
    const data = await exportAccountData((await viewerOf(ana.cookie))!);
    expect(data.seguridad.verificacionEnDosPasos).toBe(false);
    expect(data.seguridad.llavesDeAcceso).toEqual([]);
    expect(data.seguridad.sesiones).toHaveLength(1);
    expect(data.seguridad.sesiones[0]).toMatchObject({
      iniciadaEl: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      caducaEl: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const token = decodeURIComponent(ana.cookie.split("=")[1]!).split(".")[0]!;
    expect(token.length).toBeGreaterThan(20);
    expect(JSON.stringify(data)).not.toContain(token);
  });

  it("downloads as a JSON attachment named after the brand and the moment", async () => {
    const { cookie } = await customer("descarga@example.com");
    const response = (await exportLoader({
      request: new Request(`${getConfig().siteUrl}/mi-cuenta/exportar`, {
        headers: { Cookie: cookie },
      }),
    } as unknown as Parameters<typeof exportLoader>[0])) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="vertice-digital-mis-datos-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json"$/,
    );
    expect(((await response.json()) as { cuenta: { email: string } }).cuenta.email).toBe(
      "descarga@example.com",
    );
    expect(exportFileName(new Date("2026-11-22T10:20:30.456Z"))).toBe(
      "vertice-digital-mis-datos-2026-11-22T10-20-30-456Z.json",
    );
  });
});

describe("account deletion", () => {
  const remove = (cookie: string, confirmation: string, password = PASSWORD) =>
    deleteAccount({
      request: formPost("/mi-cuenta/eliminar", { confirmation, password }, cookie),
      context: { clientAddress: "192.0.2.1" },
    } as unknown as Parameters<typeof deleteAccount>[0]) as Promise<Response>;

  /** Where a refused deletion sent the customer, and the toast shown there. */
  const refusal = async (answer: Response) => ({
    location: answer.headers.get("Location"),
    toast: (
      await takeToast(
        new Request(getConfig().siteUrl, {
          headers: { Cookie: answer.headers.getSetCookie().join("; ") },
        }),
      )
    ).toast?.title,
  });

  const stillThere = async (userId: string, cookie: string) =>
    (await database.db.select().from(users).where(eq(users.id, userId))).length === 1 &&
    (await viewerOf(cookie)) !== null;

  it("needs the exact word ELIMINAR and otherwise changes nothing", async () => {
    const { cookie, userId } = await customer("duda@example.com");
    for (const word of ["", "eliminar", "ELIMINAR ", "BORRAR"]) {
      expect(await refusal(await remove(cookie, word))).toEqual({
        location: "/mi-cuenta?tab=configuracion",
        toast: 'Debes escribir "ELIMINAR" para confirmar',
      });
    }
    expect(await stillThere(userId, cookie)).toBe(true);
  });

  it("asks for the current password: without it, or with a wrong one, nothing is deleted", async () => {
    const { cookie, userId } = await customer("sin-clave@example.com");
    expect(await refusal(await remove(cookie, "ELIMINAR", ""))).toEqual({
      location: "/mi-cuenta?tab=configuracion",
      toast: "Escribe tu contraseña actual para eliminar la cuenta.",
    });
    for (const guess of ["otra-contraseña", PASSWORD.toUpperCase(), "x".repeat(200)]) {
      expect(await refusal(await remove(cookie, "ELIMINAR", guess))).toEqual({
        location: "/mi-cuenta?tab=configuracion",
        toast: "Contraseña incorrecta",
      });
    }
    expect(await stillThere(userId, cookie)).toBe(true);
  });

  it("stops guessing: after 5 wrong passwords in 15 minutes even the right one waits", async () => {
    const { cookie, userId } = await customer("adivina@example.com");
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await refusal(await remove(cookie, "ELIMINAR", `intento-${attempt}`))).toast).toBe(
        "Contraseña incorrecta",
      );
    expect(await refusal(await remove(cookie, "ELIMINAR"))).toEqual({
      location: "/mi-cuenta?tab=configuracion",
      toast: "Demasiados intentos",
    });
    expect(await stillThere(userId, cookie)).toBe(true);
  });

  it("erases the account, profile and sessions, keeps the purchase unlinked, and signs out", async () => {
    const { cookie, userId } = await customer("adios@example.com");
    const answer = await remove(cookie, "ELIMINAR");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/");
    const cookies = answer.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/session_token=;/);
    expect(cookies).toContain("vd_flash=");
    expect(await database.db.select().from(users).where(eq(users.id, userId))).toHaveLength(0);
    expect(await database.db.select().from(profiles).where(eq(profiles.id, userId))).toHaveLength(
      0,
    );
    expect(
      await database.db.select().from(sessions).where(eq(sessions.userId, userId)),
    ).toHaveLength(0);
    const kept = await database.db
      .select()
      .from(purchases)
      .where(eq(purchases.serviceName, "Ciberseguridad"));
    expect(kept.some((purchase) => purchase.userId === null)).toBe(true);
    expect(await viewerOf(cookie)).toBeNull();
  });
});

describe("support tickets and the customer's data", () => {
  /** A customer with one ticket: their message, a staff reply with a file, then resolved. */
  async function customerWithTicket(email: string) {
    const { cookie, userId } = await customer(email);
    const viewer = (await viewerOf(cookie))!;
    const ticket = await openTicket(viewer, {
      subject: "No puedo acceder al informe",
      category: "consulta_tecnica",
      priority: "high",
      message: "El enlace del informe de seguridad da un error.",
      purchaseId: "",
    });
    const [reply] = await database.db
      .insert(ticketMessages)
      .values({ ticketId: ticket.id, author: "staff", body: "Ya está arreglado, pruébalo." })
      .returning();
    await database.db.insert(ticketAttachments).values({
      messageId: reply!.id,
      ticketId: ticket.id,
      fileName: "captura.txt",
      contentType: "text/plain",
      size: 4,
      content: Buffer.from("hola"),
    });
    await database.db
      .update(supportTickets)
      .set({ status: "resolved" })
      .where(eq(supportTickets.id, ticket.id));
    return { cookie, userId, viewer, ticket };
  }

  it("the export holds each ticket with its conversation, in Spanish, and counts them", async () => {
    const { viewer, ticket } = await customerWithTicket("con-ticket@example.com");
    await customerWithTicket("ajeno@example.com");
    const data = await exportAccountData(viewer);
    expect(data.tickets).toEqual([
      {
        numero: ticket.ticketNumber,
        asunto: "No puedo acceder al informe",
        categoria: "Consulta técnica",
        prioridad: "Alta",
        estado: "Resuelto",
        compra: null,
        creadoEl: ticket.createdAt.toISOString(),
        actualizadoEl: expect.any(String),
        cerradoEl: null,
        mensajes: [
          {
            autor: "Tú",
            texto: "El enlace del informe de seguridad da un error.",
            fecha: expect.any(String),
          },
          {
            autor: "Equipo de soporte",
            texto: "Ya está arreglado, pruébalo.",
            fecha: expect.any(String),
          },
        ],
      },
    ]);
    expect(data.estadisticas).toMatchObject({ ticketsActivos: 0, ticketsResueltos: 1 });
    expect(JSON.stringify(data)).not.toContain("ajeno@example.com");
  });

  it("deleting the account deletes its tickets, their messages and their files, and no one else's", async () => {
    const gone = await customerWithTicket("borra-tickets@example.com");
    const stays = await customerWithTicket("se-queda@example.com");
    const answer = (await deleteAccount({
      request: formPost(
        "/mi-cuenta/eliminar",
        { confirmation: "ELIMINAR", password: PASSWORD },
        gone.cookie,
      ),
      context: { clientAddress: "192.0.2.1" },
    } as unknown as Parameters<typeof deleteAccount>[0])) as Response;
    expect(answer.headers.get("Location")).toBe("/");
    const left = async (ticketId: string) => ({
      tickets: (
        await database.db.select().from(supportTickets).where(eq(supportTickets.id, ticketId))
      ).length,
      messages: (
        await database.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticketId))
      ).length,
      files: (
        await database.db
          .select()
          .from(ticketAttachments)
          .where(eq(ticketAttachments.ticketId, ticketId))
      ).length,
    });
    expect(await left(gone.ticket.id)).toEqual({ tickets: 0, messages: 0, files: 0 });
    expect(await left(stays.ticket.id)).toEqual({ tickets: 1, messages: 2, files: 1 });
  });
});
