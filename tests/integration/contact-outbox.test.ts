import { and, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contactMailHourlyCaps } from "~/features/contact/contact-mails.server";
import { storeEnquiry } from "~/features/contact/enquiries.server";
import { resetConfigForTests } from "~/platform/config.server";
import { openDatabase, type Database } from "~/platform/db/client.server";
import { contactInquiries, mailOutbox, rateLimitBuckets } from "~/platform/db/schema";
import {
  deliverDueMails,
  pruneFinishedMails,
  type DeliveryOptions,
  type MailTransport,
} from "~/platform/mail/outbox.server";
import { smtpTransport } from "~/platform/mail/transports.server";
import { SmtpPeer } from "../support/smtp-peer";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();
const peer = new SmtpPeer();
let transport: ReturnType<typeof smtpTransport>;

const enquiry = {
  name: "Ana García",
  email: "ana@example.com",
  service: "ciberseguridad" as const,
  message: "Necesito una auditoría de mi tienda online.\nGracias.",
};

beforeAll(async () => {
  await peer.start();
  transport = smtpTransport(peer.url, "Vértice Digital <hola@verticedigital.es>");
});

afterAll(async () => {
  transport.close();
  await peer.stop();
});

beforeEach(async () => {
  peer.received.length = 0;
  await database.db.delete(mailOutbox);
  await database.db.delete(contactInquiries);
});

/**
 * Runs `work` on the test database from two workers at once; on PostgreSQL the second worker is
 * a second instance with its own connection pool.
 */
async function onTwoInstances(work: (db: Database) => Promise<void>) {
  const url = database.url;
  const second = url ? openDatabase({ kind: "postgres", url }) : database.handle;
  try {
    await Promise.all([work(database.db), work(second.db)]);
  } finally {
    if (second !== database.handle) await second.close();
  }
}

async function drain(db = database.db, via: MailTransport = transport) {
  for (;;) {
    const report = await deliverDueMails(db, via);
    if (report.sent + report.retried + report.failed.length === 0) return;
  }
}

describe("a contact enquiry", () => {
  it("is stored once and both mails arrive with the right subjects and recipients", async () => {
    await storeEnquiry(database.db, enquiry);
    await drain();
    expect(await database.db.select().from(contactInquiries)).toHaveLength(1);
    expect(peer.received).toHaveLength(2);
    const inbox = peer.received.find((mail) => mail.subject?.startsWith("Nueva consulta"));
    const confirmation = peer.received.find((mail) => mail.subject?.startsWith("Hemos recibido"));
    expect(inbox?.subject).toBe("Nueva consulta: Ciberseguridad - Ana García");
    expect(inbox?.to).toMatchObject({ text: "hola@verticedigital.es" });
    expect(inbox?.replyTo?.text).toBe("ana@example.com");
    expect(inbox?.text).toContain("Necesito una auditoría de mi tienda online.");
    expect(confirmation?.subject).toBe("Hemos recibido tu consulta - Vértice Digital");
    expect(confirmation?.to).toMatchObject({ text: "ana@example.com" });
    expect(confirmation?.html).toContain("Ciberseguridad");
    expect(confirmation?.text).toContain("menos de 24 horas");
    // Anyone can type any address: the visitor's own text never goes to it.
    expect(confirmation?.text).not.toContain("auditoría");
    expect(String(confirmation?.html)).not.toContain("auditoría");
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.map((row) => [row.status, row.deliveredVia])).toEqual([
      ["sent", "smtp"],
      ["sent", "smtp"],
    ]);
  });

  it("arrives as text, never as markup, whatever the visitor typed", async () => {
    await storeEnquiry(database.db, {
      ...enquiry,
      name: "<script>alert(1)</script>",
      message: 'Hola <img src=x onerror="alert(2)"> & adiós',
    });
    await drain();
    expect(peer.received).toHaveLength(2);
    for (const mail of peer.received) {
      const html = String(mail.html);
      expect(html).not.toContain("<script>");
      expect(html).not.toContain("<img src=x");
    }
    const inbox = peer.received.find((mail) => mail.subject?.startsWith("Nueva consulta"))!;
    expect(String(inbox.html)).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(String(inbox.html)).toContain(
      "&lt;img src=x onerror=&quot;alert(2)&quot;&gt; &amp; adiós",
    );
    expect(inbox.subject).toBe("Nueva consulta: Ciberseguridad - <script>alert(1)</script>");
  });

  it("keeps its mails while the SMTP server is down and delivers them once it is back", async () => {
    const port = peer.port;
    await peer.stop();
    await storeEnquiry(database.db, enquiry);
    const firstTry = await deliverDueMails(database.db, transport);
    expect(firstTry).toMatchObject({ sent: 0, retried: 2 });
    expect(await database.db.select().from(contactInquiries)).toHaveLength(1);
    const waiting = await database.db.select().from(mailOutbox);
    expect(waiting.map((row) => row.status)).toEqual(["pending", "pending"]);
    for (const row of waiting) {
      expect(row.attempts).toBe(1);
      expect(row.lastError).toBeTruthy();
      expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    }
    // Nothing is due before the back-off has passed.
    expect(await deliverDueMails(database.db, transport)).toMatchObject({ sent: 0, retried: 0 });

    await peer.start(port);
    await database.db.update(mailOutbox).set({ nextAttemptAt: sql`now()` });
    await drain();
    expect(peer.received).toHaveLength(2);
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ["sent", 2],
      ["sent", 2],
    ]);
  });

  it("gives up on a mail that still fails after 24 hours, marking it failed", async () => {
    await storeEnquiry(database.db, enquiry);
    await database.db.update(mailOutbox).set({ createdAt: sql`now() - interval '25 hours'` });
    const broken: MailTransport = {
      name: "smtp",
      send: () => Promise.reject(new Error("550 mailbox unavailable")),
    };
    const report = await deliverDueMails(database.db, broken);
    expect(report.failed.map((mail) => mail.lastError)).toEqual([
      "550 mailbox unavailable",
      "550 mailbox unavailable",
    ]);
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.map((row) => row.status)).toEqual(["failed", "failed"]);
    expect(await deliverDueMails(database.db, transport)).toMatchObject({ sent: 0 });
  });

  it("is delivered exactly once by two workers sharing the database", async () => {
    for (let i = 0; i < 20; i++)
      await storeEnquiry(database.db, { ...enquiry, name: `Cliente ${i}` });
    await onTwoInstances((db) => drain(db));
    expect(peer.received).toHaveLength(40);
    expect(new Set(peer.received.map((mail) => mail.messageId)).size).toBe(40);
    const unsent = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.status, "pending"));
    expect(unsent).toHaveLength(0);
  });

  it("survives 200 concurrent enquiries: all stored, all 400 mails delivered once", async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        storeEnquiry(database.db, {
          ...enquiry,
          name: `Visitante ${i}`,
          email: `v${i}@example.com`,
        }),
      ),
    );
    expect(new Set(results.map((r) => r.status === "stored" && r.id)).size).toBe(200);
    await drain();
    expect(await database.db.select().from(contactInquiries)).toHaveLength(200);
    expect(peer.received).toHaveLength(400);
    expect(new Set(peer.received.map((mail) => mail.messageId)).size).toBe(400);
  });
});

describe("the site-wide hourly cap on visitors' confirmations", () => {
  beforeAll(() => {
    process.env.CONTACT_CONFIRMATIONS_PER_HOUR = "3";
    resetConfigForTests();
  });
  afterAll(() => {
    delete process.env.CONTACT_CONFIRMATIONS_PER_HOUR;
    resetConfigForTests();
  });
  beforeEach(async () => {
    await database.db.delete(rateLimitBuckets);
  });

  /** Delivers until nothing is due, as the worker does, with the contact feature's caps. */
  async function drainCapped(db = database.db) {
    const options: DeliveryOptions = { hourlyCaps: contactMailHourlyCaps() };
    for (;;) {
      const report = await deliverDueMails(db, transport, options);
      if (report.sent + report.retried + report.deferred + report.failed.length === 0) return;
    }
  }
  const subjects = (prefix: string) =>
    peer.received.filter((mail) => mail.subject?.startsWith(prefix));
  const storeFour = async () => {
    for (let i = 0; i < 4; i++)
      await storeEnquiry(database.db, {
        ...enquiry,
        name: `Visita ${i}`,
        email: `v${i}@example.com`,
      });
  };

  it("sends 3 in the hour; the 4th waits for the next hour while enquiries and notifications go out", async () => {
    await storeFour();
    await drainCapped();
    expect(await database.db.select().from(contactInquiries)).toHaveLength(4);
    expect(subjects("Nueva consulta")).toHaveLength(4);
    expect(subjects("Hemos recibido")).toHaveLength(3);
    const waiting = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.status, "pending"));
    expect(waiting.map((mail) => [mail.kind, mail.attempts])).toEqual([
      ["contact-confirmation", 0],
    ]);
    const waitMs = waiting[0]!.nextAttemptAt.getTime() - Date.now();
    expect(waitMs).toBeGreaterThan(55 * 60_000);
    expect(waitMs).toBeLessThanOrEqual(60 * 60_000 + 5_000);
    expect(
      await deliverDueMails(database.db, transport, { hourlyCaps: contactMailHourlyCaps() }),
    ).toMatchObject({ sent: 0 });

    // An hour later: the window has ended and the waiting confirmation is due.
    await database.db
      .update(rateLimitBuckets)
      .set({ windowStartedAt: sql`now() - interval '1 hour'` });
    await database.db
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(and(eq(mailOutbox.status, "pending"), eq(mailOutbox.kind, "contact-confirmation")));
    await drainCapped();
    expect(subjects("Hemos recibido")).toHaveLength(4);
    expect(subjects("Hemos recibido").at(-1)?.to).toMatchObject({ text: waiting[0]!.recipient });
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.every((row) => row.status === "sent")).toBe(true);
  });

  it("asks for one slot past the cap in a pass, not one for each mail that waits", async () => {
    for (let i = 0; i < 10; i++)
      await storeEnquiry(database.db, { ...enquiry, email: `c${i}@example.com` });
    const options = { hourlyCaps: contactMailHourlyCaps(), concurrency: 1 };
    expect(await deliverDueMails(database.db, transport, options)).toMatchObject({
      sent: 13,
      deferred: 7,
    });
    const [slots] = await database.db
      .select()
      .from(rateLimitBuckets)
      .where(eq(rateLimitBuckets.key, "mail-hourly:contact-confirmation"));
    expect(slots?.hits).toBe(4);
    const waiting = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.status, "pending"));
    expect(waiting.map((mail) => [mail.kind, mail.attempts])).toEqual(
      Array.from({ length: 7 }, () => ["contact-confirmation", 0]),
    );
    for (const mail of waiting)
      expect(mail.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(55 * 60_000);
  });

  it("holds across two workers sharing the database", async () => {
    for (let i = 0; i < 10; i++)
      await storeEnquiry(database.db, { ...enquiry, email: `w${i}@example.com` });
    await onTwoInstances(drainCapped);
    expect(subjects("Nueva consulta")).toHaveLength(10);
    expect(subjects("Hemos recibido")).toHaveLength(3);
  });
});

describe("outbox retention", () => {
  it("deletes sent and failed mails after 30 days and never a pending one", async () => {
    for (let i = 0; i < 3; i++) await storeEnquiry(database.db, enquiry);
    const [sent, failed, pending, recent] = await database.db.select().from(mailOutbox);
    await database.db
      .update(mailOutbox)
      .set({ status: "sent", createdAt: sql`now() - interval '31 days'` })
      .where(eq(mailOutbox.id, sent!.id));
    await database.db
      .update(mailOutbox)
      .set({ status: "failed", createdAt: sql`now() - interval '31 days'` })
      .where(eq(mailOutbox.id, failed!.id));
    await database.db
      .update(mailOutbox)
      .set({ createdAt: sql`now() - interval '60 days'` })
      .where(eq(mailOutbox.id, pending!.id));
    await database.db
      .update(mailOutbox)
      .set({ status: "sent", createdAt: sql`now() - interval '29 days'` })
      .where(eq(mailOutbox.id, recent!.id));

    expect(await pruneFinishedMails(database.db)).toBe(2);
    const left = (await database.db.select().from(mailOutbox)).map((mail) => mail.id);
    expect(left).toHaveLength(4);
    expect(left).toEqual(expect.arrayContaining([pending!.id, recent!.id]));
  });
});

describe("the dev mailbox transport", () => {
  it("logs one line per mail with its subject and links", async () => {
    const lines: string[] = [];
    const logger = pino({ base: undefined }, { write: (line: string) => void lines.push(line) });
    const { devMailboxTransport } = await import("~/platform/mail/transports.server");
    await storeEnquiry(database.db, enquiry);
    await drain(database.db, devMailboxTransport(logger));
    expect(lines).toHaveLength(2);
    const entries = lines.map((line) => JSON.parse(line) as { subject: string; links: string[] });
    expect(entries.map((e) => e.subject).sort()).toEqual([
      "Hemos recibido tu consulta - Vértice Digital",
      "Nueva consulta: Ciberseguridad - Ana García",
    ]);
    expect(entries.flatMap((e) => e.links)).toContain("mailto:ana@example.com");
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.every((row) => row.deliveredVia === "dev-mailbox" && row.status === "sent")).toBe(
      true,
    );
  });
});
