/**
 * Pagos' status filter: the spec's (all, completed, pending, failed), plus withdrawn and refunded
 * payments, which count in no total (decision 050).
 */
export const paymentFilters = [
  { value: "all", label: "Todos" },
  { value: "completed", label: "Completados" },
  { value: "pending", label: "Pendientes" },
  { value: "failed", label: "Fallidos" },
  { value: "withdrawn", label: "Desistidos" },
  { value: "refunded", label: "Reembolsados" },
] as const;

export type PaymentFilter = (typeof paymentFilters)[number]["value"];
