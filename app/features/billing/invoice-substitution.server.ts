import type { Viewer } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { userActivityLog } from "~/platform/db/schema";
import { checkForm } from "~/platform/forms/form-answer";
import { readForm, refuse } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import {
  substitutionSchema,
  substitutionMessages,
  type SubstitutionMessage,
} from "./invoice-substitution-form";
import {
  issueSubstituteInvoice,
  sendNewInvoiceRecords,
  substitutionOf,
  type SubstitutionRefusal,
} from "./invoices.server";

/** Mi Cuenta's Compras tab, where the new invoice is listed. */
const PURCHASES_PATH = "/mi-cuenta?tab=compras";

const notFound = () => new Response("Factura no encontrada", { status: 404 });

const REFUSALS = {
  notSimplified: "substitutionNotSimplified",
  alreadySubstituted: "substitutionAlreadyIssued",
  notInForce: "substitutionNotInForce",
} as const satisfies Record<Exclude<SubstitutionRefusal, "notFound">, SubstitutionMessage>;

/**
 * The page where a customer asks for a complete invoice in place of a simplified one: the
 * invoice, and the form started from their profile, or why it cannot be replaced. Another
 * customer's invoice answers 404, like one that does not exist.
 */
export async function substitutionPage(viewer: Viewer, invoiceId: string) {
  const found = await substitutionOf(viewer.id, invoiceId);
  if (!found) throw notFound();
  const { invoice, substitute, refusal, profileBilling } = found;
  return {
    invoice: {
      id: invoice.id,
      number: invoice.number,
      issuedAt: invoice.issuedAt,
      description: invoice.description,
      totalAmount: invoice.totalAmount,
    },
    substitute: substitute ?? null,
    refusal: refusal && refusal !== "notFound" ? REFUSALS[refusal] : null,
    profileBilling,
  };
}

/**
 * Issues the F3 (invoices.server.ts) once the data passes the checks AEAT would make, notes it in
 * the customer's activity, and sends its record to AEAT after the commit.
 */
export async function substitutionAction(request: Request, viewer: Viewer, invoiceId: string) {
  if (!(await substitutionOf(viewer.id, invoiceId))) throw notFound();
  const fields = (await readForm(request))?.fields ?? {};
  const parsed = checkForm(substitutionSchema, fields);
  if (!parsed.ok) return refuse(parsed.errors, { values: fields });
  let answer;
  try {
    answer = await getDb().transaction(async (tx) => {
      const issued = await issueSubstituteInvoice(tx, {
        invoiceId,
        userId: viewer.id,
        buyer: parsed.data,
        issuedAt: new Date(),
      });
      if (issued.ok)
        await tx.insert(userActivityLog).values({
          userId: viewer.id,
          activityType: "invoice_substituted",
          description: `Factura completa ${issued.invoice.number} en sustitución de ${issued.substituted.number}`,
          metadata: { invoiceId: issued.invoice.id, substitutedInvoiceId: invoiceId },
        });
      return issued;
    });
  } catch (error) {
    getLogger().error({ err: error, invoiceId }, "issuing a substitute invoice failed");
    return refuse<SubstitutionMessage>("substitutionFailed", { status: 503, values: fields });
  }
  if (!answer.ok) {
    if (answer.reason === "notFound") throw notFound();
    return refuse(REFUSALS[answer.reason], { status: 409 });
  }
  sendNewInvoiceRecords();
  const { title } = substitutionMessages.substitutionIssued;
  return redirectWithToast(PURCHASES_PATH, {
    kind: "success",
    title,
    description: `La factura ${answer.invoice.number} sustituye a la factura simplificada ${answer.substituted.number}. Ya puedes descargarla.`,
  });
}
