import { getDb } from "~/platform/db/database.server";
import { recordStateLabels, recordStateText } from "~/features/verifactu/record-states";
import { latestRecordStates } from "~/features/verifactu/staff-records.server";

/** What staff read of an invoice's billing record: its state, and AEAT's words when it objected. */
export type InvoiceRecordState = {
  status: "pending" | "accepted" | "accepted_with_errors" | "rejected";
  /** 'Rechazado', or 'Anulación: Aceptado' for a cancelled invoice. */
  label: string;
  /** AEAT's code and text on a rejected record or one accepted with errors. */
  aeatText: string | null;
  /** Its latest record is its anulación: the invoice was issued in error (decision 064). */
  annulled: boolean;
};

/**
 * The Verifactu state of each invoice's latest record (its alta, its subsanación or its
 * anulación), for the staff's payment page; payments reads it here, never from verifactu.
 */
export async function invoiceRecordStates(
  invoiceIds: string[],
): Promise<Map<string, InvoiceRecordState>> {
  const states = await latestRecordStates(getDb(), invoiceIds);
  const shown = new Map<string, InvoiceRecordState>();
  for (const [invoiceId, state] of states) {
    const label = recordStateLabels[state.status];
    const full = recordStateText(state);
    shown.set(invoiceId, {
      status: state.status,
      label: state.kind === "anulacion" ? `Anulación: ${label}` : label,
      annulled: state.kind === "anulacion",
      aeatText:
        full === label
          ? null
          : full
              .slice(label.length)
              .trim()
              .replace(/^\(|\)$/g, ""),
    });
  }
  return shown;
}
