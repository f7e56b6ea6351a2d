import { describe, expect, it } from "vitest";
import { dashboardFigures } from "~/features/admin/dashboard.server";
import { listTab } from "~/features/admin/tabs/list-tabs.server";
import type { AdminListTab, AdminView } from "~/features/admin/admin-tabs";
import { contactInquiries, payments, purchases } from "~/platform/db/schema";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

async function payment(email: string, amount: number, status: "completed" | "refunded" | "failed") {
  const [purchase] = await database.db
    .insert(purchases)
    .values({
      serviceId: 4,
      serviceName: "Ciberseguridad",
      price: amount,
      status: status === "refunded" ? "refunded" : status,
      provider: "simulated",
    })
    .returning();
  await database.db.insert(payments).values({
    purchaseId: purchase!.id,
    customerEmail: email,
    serviceName: "Ciberseguridad",
    amount,
    status,
  });
}

const view = (
  tab: AdminListTab,
  search = "",
  status: AdminView["status"] = "all",
): AdminView & { tab: AdminListTab } => ({
  tab,
  search,
  status,
  order: "recientes",
  page: 1,
  pageSize: 25,
  inquiryId: null,
  days: 30,
});

describe("the admin lists", () => {
  it("count revenue from completed payments only", async () => {
    await payment("ana@example.com", 44_900, "completed");
    await payment("luis@example.com", 79_900, "completed");
    await payment("eva@example.com", 14_900, "refunded");
    await payment("eva@example.com", 7_900, "failed");
    const figures = await dashboardFigures(database.db);
    expect(figures).toMatchObject({ revenueCents: 124_800, orders: 2 });
    expect(figures.latestPayments).toHaveLength(4);
  });

  it("filter payments by status and search them without case", async () => {
    const refunded = await listTab(database.db, view("pagos", "", "refunded"));
    expect(refunded.rows.map((row) => (row as { customerEmail: string }).customerEmail)).toEqual([
      "eva@example.com",
    ]);
    const byEmail = await listTab(database.db, view("pagos", "LUIS"));
    expect(byEmail.rows).toHaveLength(1);
  });

  it("take % and _ in a search literally", async () => {
    await database.db.insert(contactInquiries).values([
      {
        name: "Ana",
        email: "ana@example.com",
        service: "ia",
        message: "Descuento del 50% posible?",
      },
      {
        name: "Luis",
        email: "luis_g@example.com",
        service: "ia",
        message: "Hola, quiero información.",
      },
    ]);
    expect((await listTab(database.db, view("consultas", "%"))).rows).toHaveLength(1);
    expect((await listTab(database.db, view("consultas", "_g@"))).rows).toHaveLength(1);
    expect((await listTab(database.db, view("consultas", "xyz"))).rows).toHaveLength(0);
    expect((await listTab(database.db, view("consultas"))).rows).toHaveLength(2);
  });
});
