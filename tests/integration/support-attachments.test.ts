import { randomUUID } from "node:crypto";
import { count, eq, like } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Viewer } from "~/features/identity/session.server";
import {
  ATTACHMENT_POLICY,
  attachmentFileName,
  attachmentType,
} from "~/features/support/attachments.server";
import { supportMessages } from "~/features/support/ticket-rules";
import { textOf, type FormRefusal } from "~/platform/forms/form-answer";
import {
  createTicketAction,
  customerTicketAction,
  customerTicketPage,
} from "~/features/support/customer-tickets.server";
import { staffTicketAction, staffTicketPage } from "~/features/support/staff-tickets.server";
import { getConfig } from "~/platform/config.server";
import {
  rateLimitBuckets,
  supportTickets,
  ticketAttachments,
  ticketMessages,
  userRoles,
} from "~/platform/db/schema";
import { loader as downloadLoader } from "~/routes/soporte-adjunto";
import { enrolTotp, partyOf, signedInAdmin, signedInCustomer } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

// Real, tiny files of each allowed type.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
  0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);
const WEBP = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);
const TEXT = Buffer.from("Error 500 al iniciar sesión\r\n\tcódigo: ABC-123\n");

const HTML = Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>");
const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
);
const EXECUTABLE = Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00"), Buffer.alloc(120)]);
const GIF = Buffer.from("R0lGODlhAQABAAAAACw=", "base64");
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.alloc(26), ...Buffer.from("a.txt")]);
const NUL_TEXT = Buffer.from("hola\u0000mundo");
const NOT_UTF8 = Buffer.from([0x68, 0x6f, 0x6c, 0x61, 0xff, 0xfe, 0x20]);
const TEXT_WITH_SCRIPT = Buffer.from("Mi log:\n<script>alert(1)</script>\n");

type Party = { viewer: Viewer; cookie: string };
let ana: Party;
let luis: Party;
let admin: Party;

// This file posts dozens of tickets to check their files, not the hourly limits on posts
// (tests/integration/ticket-quotas.test.ts): every post counts, refused or not (decision 033).
beforeEach(async () => {
  await database.db.delete(rateLimitBuckets).where(like(rateLimitBuckets.key, "%:user:%"));
});

beforeAll(async () => {
  ana = await partyOf(
    "ana.adjuntos@example.com",
    (await signedInCustomer("ana.adjuntos@example.com")).cookie,
  );
  luis = await partyOf(
    "luis.adjuntos@example.com",
    (await signedInCustomer("luis.adjuntos@example.com", { clientAddress: "192.0.2.2" })).cookie,
  );
  admin = await partyOf(
    "adjuntos-admin@example.com",
    (await signedInAdmin("adjuntos-admin@example.com")).cookie,
  );
});

type Upload = { bytes: Buffer; name: string; type?: string };

/** A multipart form as a browser sends it: text fields, and files under 'attachments'. */
function multipartPost(
  path: string,
  fields: Record<string, string>,
  files: Upload[],
  cookie: string,
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files)
    form.append(
      "attachments",
      new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? "" }),
    );
  return new Request(`${getConfig().siteUrl}${path}`, {
    method: "POST",
    body: form,
    headers: { Cookie: cookie, Origin: getConfig().siteUrl },
  });
}

const ticketFields = {
  subject: "La web no carga",
  category: "consulta_tecnica",
  priority: "high",
  message: "Adjunto una captura del error que veo al entrar.",
};

type Refusal = {
  status: number;
  errors: string[];
  values?: Record<string, string>;
  refusedFile?: string;
};

/**
 * A refused form's answer (React Router's data()): its codes, the text echoed and the file its
 * refusal names; or the redirect's Location when it was taken.
 */
function outcome(answer: unknown): { location: string } | Refusal {
  if (answer instanceof Response) return { location: answer.headers.get("Location")! };
  const { data, init } = answer as { data: FormRefusal; init: ResponseInit | null };
  return {
    status: init?.status ?? 200,
    errors: data.errors.map(({ code }) => code),
    values: data.values,
    refusedFile: data.errors.find(({ detail }) => detail)?.detail,
  };
}

async function createWith(files: Upload[], customer = ana, fields = ticketFields) {
  return outcome(
    await createTicketAction(
      multipartPost("/mi-cuenta/tickets/nuevo", fields, files, customer.cookie),
      customer.viewer,
    ),
  );
}

async function rowCounts() {
  const [tickets] = await database.db.select({ n: count() }).from(supportTickets);
  const [messages] = await database.db.select({ n: count() }).from(ticketMessages);
  const [attachments] = await database.db.select({ n: count() }).from(ticketAttachments);
  return { tickets: tickets!.n, messages: messages!.n, attachments: attachments!.n };
}

function download(attachmentId: string, cookie = "") {
  return downloadLoader({
    request: new Request(`${getConfig().siteUrl}/soporte/adjuntos/${attachmentId}`, {
      headers: cookie ? { Cookie: cookie } : {},
    }),
    params: { attachmentId },
    context: {},
  } as unknown as Parameters<typeof downloadLoader>[0]);
}

const ticketIdOf = (location: string) => location.split("/").pop()!;

describe("the type of a file comes from its content", () => {
  it.each([
    ["PNG", PNG, "image/png"],
    ["JPEG", JPEG, "image/jpeg"],
    ["WebP", WEBP, "image/webp"],
    ["PDF", PDF, "application/pdf"],
    ["text", TEXT, "text/plain"],
  ])("%s is accepted as what it is", async (_label, bytes, type) => {
    expect(await attachmentType(bytes)).toBe(type);
  });

  it.each([
    ["HTML", HTML],
    ["SVG", SVG],
    ["a Windows executable", EXECUTABLE],
    ["GIF", GIF],
    ["ZIP", ZIP],
    ["text with a NUL", NUL_TEXT],
    ["text that is not UTF-8", NOT_UTF8],
    ["text with a script tag", TEXT_WITH_SCRIPT],
    ["an empty file", Buffer.alloc(0)],
  ])("%s is refused", async (_label, bytes) => {
    expect(await attachmentType(bytes)).toBeUndefined();
  });

  it("keeps a safe name whose extension matches the real type", () => {
    expect(attachmentFileName("captura.png", "image/png")).toBe("captura.png");
    expect(attachmentFileName("informe.pdf", "image/png")).toBe("informe.pdf.png");
    expect(attachmentFileName("../../etc/passwd", "text/plain")).toBe("passwd.txt");
    expect(attachmentFileName('C:\\fotos\\a"b<c>\u0007.JPG', "image/jpeg")).toBe("abc.JPG");
    expect(attachmentFileName("...", "application/pdf")).toBe("adjunto.pdf");
  });
});

describe("a new ticket with files", () => {
  it("stores every allowed type with the message, and the conversation lists them without bytes", async () => {
    const sent = await createWith([
      { bytes: PNG, name: "captura.png", type: "image/png" },
      { bytes: JPEG, name: "foto.jpg", type: "image/jpeg" },
      { bytes: WEBP, name: "pantalla.webp", type: "image/webp" },
    ]);
    expect(sent).toHaveProperty("location");
    const ticketId = ticketIdOf((sent as { location: string }).location);
    const page = await customerTicketPage(ana.viewer, ticketId);
    const files = page.messages[0]!.attachments;
    expect(files.map((file) => [file.fileName, file.contentType, file.size])).toEqual([
      ["captura.png", "image/png", PNG.length],
      ["foto.jpg", "image/jpeg", JPEG.length],
      ["pantalla.webp", "image/webp", WEBP.length],
    ]);
    expect(JSON.stringify(page)).not.toContain('"content"');

    const other = await createWith([
      { bytes: PDF, name: "factura.pdf", type: "application/pdf" },
      { bytes: TEXT, name: "error.txt", type: "text/plain" },
    ]);
    const otherPage = await customerTicketPage(
      ana.viewer,
      ticketIdOf((other as { location: string }).location),
    );
    expect(otherPage.messages[0]!.attachments.map((file) => file.contentType)).toEqual([
      "text/plain",
      "application/pdf",
    ]);
  });

  it("ignores the empty part a file input sends when nothing is chosen", async () => {
    const before = await rowCounts();
    const sent = await createWith([
      { bytes: Buffer.alloc(0), name: "", type: "application/octet-stream" },
    ]);
    expect(sent).toHaveProperty("location");
    const after = await rowCounts();
    expect(after.attachments).toBe(before.attachments);
    expect(after.messages).toBe(before.messages + 1);
  });

  it.each([
    ["HTML named .png", { bytes: HTML, name: "captura.png", type: "image/png" }],
    ["SVG named .png", { bytes: SVG, name: "logo.png", type: "image/png" }],
    [
      "an executable named .pdf",
      { bytes: EXECUTABLE, name: "factura.pdf", type: "application/pdf" },
    ],
    ["a GIF named .jpg", { bytes: GIF, name: "foto.jpg", type: "image/jpeg" }],
    ["binary named .txt", { bytes: NUL_TEXT, name: "notas.txt", type: "text/plain" }],
  ])("refuses %s, names it, keeps the text typed and writes nothing", async (_label, file) => {
    const before = await rowCounts();
    const answer = await createWith([{ bytes: PNG, name: "buena.png", type: "image/png" }, file]);
    expect(answer).toMatchObject({
      status: 400,
      errors: ["attachmentType"],
      refusedFile: file.name,
      values: { subject: ticketFields.subject, message: ticketFields.message },
    });
    const refused = { code: "attachmentType", detail: file.name };
    expect(textOf(supportMessages, refused).description).toBe(
      `Solo se admiten PNG, JPEG, WebP, PDF y texto. «${file.name}» no se ha enviado.`,
    );
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a file over 5 MB", async () => {
    const before = await rowCounts();
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1 - PNG.length)]);
    const answer = await createWith([{ bytes: big, name: "enorme.png", type: "image/png" }]);
    expect(answer).toMatchObject({ status: 400, errors: ["attachmentTooBig"] });
    expect(await rowCounts()).toEqual(before);
    // Exactly 5 MB is allowed.
    const limit = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 - PNG.length)]);
    expect(await createWith([{ bytes: limit, name: "justo.png" }])).toHaveProperty("location");
  });

  it("refuses more than 3 files", async () => {
    const before = await rowCounts();
    const four = [1, 2, 3, 4].map((n) => ({ bytes: TEXT, name: `log-${n}.txt` }));
    const answer = await createWith(four);
    expect(answer).toMatchObject({ status: 400, errors: ["tooManyAttachments"] });
    expect(await rowCounts()).toEqual(before);
  });

  it("names the text's problems and the file's together", async () => {
    const answer = await createWith([{ bytes: HTML, name: "x.png" }], ana, {
      ...ticketFields,
      message: "corto",
    });
    expect(answer).toMatchObject({
      status: 400,
      errors: ["messageTooShort", "attachmentType"],
      values: { message: "corto" },
    });
  });
});

describe("files in later messages", () => {
  let ticketId: string;
  beforeAll(async () => {
    ticketId = ticketIdOf(((await createWith([])) as { location: string }).location);
  });

  it("the customer's message takes files, and a refused file keeps the message out", async () => {
    const post = (files: Upload[], customer = ana) =>
      customerTicketAction(
        multipartPost(
          `/mi-cuenta/tickets/${ticketId}`,
          { intent: "message", message: "Aquí va el registro del error." },
          files,
          customer.cookie,
        ),
        customer.viewer,
        ticketId,
      );
    const before = await rowCounts();
    expect(
      outcome(await post([{ bytes: SVG, name: "registro.txt", type: "text/plain" }])),
    ).toMatchObject({
      status: 400,
      errors: ["attachmentType"],
      values: { message: "Aquí va el registro del error." },
    });
    expect(await rowCounts()).toEqual(before);

    expect(outcome(await post([{ bytes: TEXT, name: "registro.txt" }]))).toHaveProperty("location");
    const page = await customerTicketPage(ana.viewer, ticketId);
    expect(page.messages.at(-1)!.attachments.map((file) => file.fileName)).toEqual([
      "registro.txt",
    ]);
    // Another customer's post never reaches the ticket.
    await expect(post([{ bytes: TEXT, name: "x.txt" }], luis)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("a staff reply takes files too", async () => {
    const answer = await staffTicketAction(
      multipartPost(
        `/admin/tickets/${ticketId}`,
        { intent: "reply", message: "Te envío la guía con los pasos." },
        [{ bytes: PDF, name: "guía de pasos.pdf", type: "application/pdf" }],
        admin.cookie,
      ),
      { ...admin.viewer, role: "support", clientAddress: "192.0.2.61", userAgent: null },
      ticketId,
    );
    expect(outcome(answer)).toHaveProperty("location");
    const page = await staffTicketPage(ticketId);
    const reply = page.messages.at(-1)!;
    expect(reply.author).toBe("staff");
    expect(reply.attachments.map((file) => file.fileName)).toEqual(["guía de pasos.pdf"]);
  });
});

describe("downloads", () => {
  let attachmentId: string;
  beforeAll(async () => {
    const sent = await createWith([
      { bytes: PNG, name: 'captura ñ 100% "(1)".png', type: "image/png" },
    ]);
    const page = await customerTicketPage(
      ana.viewer,
      ticketIdOf((sent as { location: string }).location),
    );
    attachmentId = page.messages[0]!.attachments[0]!.id;
  });

  it("the owner gets the file as a download a browser will not render", async () => {
    const answer = await download(attachmentId, ana.cookie);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer()).equals(PNG)).toBe(true);
    expect(answer.headers.get("Content-Type")).toBe("image/png");
    expect(answer.headers.get("Content-Disposition")).toBe(
      "attachment; filename=\"captura _ 100_ (1).png\"; filename*=UTF-8''captura%20%C3%B1%20100%25%20%281%29.png",
    );
    expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(answer.headers.get("Content-Security-Policy")).toBe(ATTACHMENT_POLICY);
    expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("staff get it too", async () => {
    const answer = await download(attachmentId, admin.cookie);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("another customer, an anonymous visitor, an unknown or malformed id get 404", async () => {
    for (const [id, cookie] of [
      [attachmentId, luis.cookie],
      [attachmentId, ""],
      [randomUUID(), ana.cookie],
      ["no-es-un-id", ana.cookie],
      [`${attachmentId}'--`, admin.cookie],
    ] as const) {
      const answer = await download(id, cookie);
      expect(answer.status, `${id} with ${cookie ? "a session" : "none"}`).toBe(404);
      expect(await answer.text()).not.toContain("PNG");
    }
  });

  it("a text file is sent as UTF-8 plain text, still as a download", async () => {
    const sent = await createWith([{ bytes: TEXT, name: "registro", type: "text/html" }]);
    const page = await customerTicketPage(
      ana.viewer,
      ticketIdOf((sent as { location: string }).location),
    );
    const file = page.messages[0]!.attachments[0]!;
    expect(file.fileName).toBe("registro.txt");
    const answer = await download(file.id, ana.cookie);
    expect(answer.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment; /);
    expect(await answer.text()).toBe(TEXT.toString());
  });
});

describe("previews of images (?vista, decision 054)", () => {
  let ticketId: string;
  let pngId: string;
  let pdfId: string;

  function preview(attachmentId: string, cookie = "") {
    return downloadLoader({
      request: new Request(`${getConfig().siteUrl}/soporte/adjuntos/${attachmentId}?vista`, {
        headers: cookie ? { Cookie: cookie } : {},
      }),
      params: { attachmentId },
      context: {},
    } as unknown as Parameters<typeof downloadLoader>[0]);
  }

  /** A file stored as `contentType` whatever its bytes: a row no upload check would write. */
  async function storedAs(bytes: Buffer, fileName: string, contentType: string) {
    const [message] = await database.db
      .select({ id: ticketMessages.id })
      .from(ticketMessages)
      .where(eq(ticketMessages.ticketId, ticketId));
    const [row] = await database.db
      .insert(ticketAttachments)
      .values({
        ticketId,
        messageId: message!.id,
        fileName,
        contentType,
        size: bytes.length,
        content: bytes,
      })
      .returning({ id: ticketAttachments.id });
    return row!.id;
  }

  beforeAll(async () => {
    const sent = await createWith([
      { bytes: PNG, name: "captura.png", type: "image/png" },
      { bytes: PDF, name: "factura.pdf", type: "application/pdf" },
    ]);
    ticketId = ticketIdOf((sent as { location: string }).location);
    const page = await customerTicketPage(ana.viewer, ticketId);
    const files = page.messages[0]!.attachments;
    pngId = files.find((file) => file.fileName === "captura.png")!.id;
    pdfId = files.find((file) => file.fileName === "factura.pdf")!.id;
  });

  it("a real PNG is shown inline, with its sniffed type, nosniff and a sandboxing policy", async () => {
    for (const cookie of [ana.cookie, admin.cookie]) {
      const answer = await preview(pngId, cookie);
      expect(answer.status).toBe(200);
      expect(Buffer.from(await answer.arrayBuffer()).equals(PNG)).toBe(true);
      expect(answer.headers.get("Content-Type")).toBe("image/png");
      expect(answer.headers.get("Content-Disposition")).toMatch(/^inline; filename="captura.png"/);
      expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
      const policy = answer.headers.get("Content-Security-Policy")!;
      expect(policy.startsWith("default-src 'none'; sandbox")).toBe(true);
      expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
    }
    // Without ?vista the same file is still a download.
    const asDownload = await download(pngId, admin.cookie);
    expect(asDownload.headers.get("Content-Disposition")).toMatch(/^attachment; /);
  });

  it("JPEG, WebP and GIF bytes are shown inline as what their bytes are", async () => {
    for (const [bytes, type] of [
      [JPEG, "image/jpeg"],
      [WEBP, "image/webp"],
      [GIF, "image/gif"],
    ] as const) {
      // Stored under another image type: the bytes decide what is served.
      const id = await storedAs(bytes, `imagen.${type.split("/")[1]}`, "image/png");
      const answer = await preview(id, admin.cookie);
      expect(answer.headers.get("Content-Type"), type).toBe(type);
      expect(answer.headers.get("Content-Disposition")).toMatch(/^inline; /);
    }
  });

  it("SVG or HTML stored as image/png is never inline, and is refused on upload", async () => {
    for (const [bytes, name] of [
      [SVG, "dibujo.png"],
      [HTML, "pagina.png"],
    ] as const) {
      const refused = await createWith([{ bytes, name, type: "image/png" }]);
      expect(refused).toMatchObject({ errors: ["attachmentType"] });

      const id = await storedAs(bytes, name, "image/png");
      const answer = await preview(id, admin.cookie);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment; /);
      expect(answer.headers.get("Content-Type")).not.toMatch(/svg|html/);
      expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(answer.headers.get("Content-Security-Policy")).toBe(ATTACHMENT_POLICY);
    }
  });

  it("a PDF or a text file stays a download with ?vista", async () => {
    const answer = await preview(pdfId, admin.cookie);
    expect(answer.headers.get("Content-Type")).toBe("application/pdf");
    expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment; /);
  });

  it("is 404 for another customer, a visitor and staff who may not read tickets", async () => {
    const finance = await signedInCustomer("finanzas.adjuntos@example.com", {
      clientAddress: "192.0.2.3",
    });
    await database.db.insert(userRoles).values({ userId: finance.userId, role: "finance" });
    const financeCookie = (await enrolTotp(finance.cookie, "contraseña-de-prueba")).cookie;
    for (const cookie of [luis.cookie, "", financeCookie]) {
      const answer = await preview(pngId, cookie);
      expect(answer.status).toBe(404);
      expect(answer.headers.get("Content-Disposition")).toBeNull();
    }
  });
});
