/** What AEAT has said of a record (verifactu_deliveries.status), and its Spanish label. */
export const recordStates = ["pending", "accepted", "accepted_with_errors", "rejected"] as const;
export type RecordState = (typeof recordStates)[number];

export const recordStateLabels: Record<RecordState, string> = {
  pending: "Pendiente de envío",
  accepted: "Aceptado",
  accepted_with_errors: "Aceptado con errores",
  rejected: "Rechazado",
};

export const recordKinds = ["alta", "anulacion"] as const;
export type RecordKind = (typeof recordKinds)[number];

export const recordKindLabels: Record<RecordKind, string> = {
  alta: "Alta",
  anulacion: "Anulación",
};

/** 'Rechazado (4102: El NIF no está identificado)': the state, with AEAT's code and text if any. */
export function recordStateText(state: {
  status: RecordState;
  errorCode: string | null;
  errorText: string | null;
}): string {
  const label = recordStateLabels[state.status];
  if (state.status === "pending" || state.status === "accepted") return label;
  const said = [state.errorCode, state.errorText].filter(Boolean).join(": ");
  return said ? `${label} (${said})` : label;
}

/**
 * Why an alta cannot be annulled, or null when it can. A registro de anulación is for an invoice
 * that should never have been issued (RD 1007/2023 art. 10; Orden HAC/1177/2024): a sale that
 * was charged, whether it still stands, was refunded or withdrawn from, is corrected with a
 * factura rectificativa (RD 1619/2012 art. 15), never annulled (decision 064).
 */
export function cancellationRefusal(record: {
  kind: RecordKind;
  latest: boolean;
  status: RecordState;
  saleCharged: boolean;
  hasCorrective: boolean;
}): "notCancellable" | "saleCharged" | "hasCorrective" | null {
  if (record.kind !== "alta" || !record.latest || record.status === "rejected")
    return "notCancellable";
  if (record.hasCorrective) return "hasCorrective";
  if (record.saleCharged) return "saleCharged";
  return null;
}

/** The longest reason kept for an anulación: a sentence or two, as in the audit log. */
export const CANCELLATION_REASON_MAX = 300;

/** AEAT's longest NombreRazon and DescripcionOperacion (SuministroInformacion.xsd). */
export const RECIPIENT_NAME_MAX = 120;
export const DESCRIPTION_MAX = 500;

/**
 * Whether a record can be corrected by a subsanación: the latest alta of its invoice that AEAT
 * rejected, or accepted with errors ([SWEB] Anexo II §8.1.3; decision 068).
 */
export function isCorrectable(record: { kind: RecordKind; latest: boolean; status: RecordState }) {
  return (
    record.kind === "alta" &&
    record.latest &&
    (record.status === "rejected" || record.status === "accepted_with_errors")
  );
}
