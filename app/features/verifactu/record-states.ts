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
