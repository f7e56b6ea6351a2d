/** Pagos' status filter: the spec's (all, completed, pending, failed), plus refunded payments. */
export const paymentFilters = [
  { value: "all", label: "Todos" },
  { value: "completed", label: "Completados" },
  { value: "pending", label: "Pendientes" },
  { value: "failed", label: "Fallidos" },
  { value: "refunded", label: "Reembolsados" },
] as const;

export type PaymentFilter = (typeof paymentFilters)[number]["value"];
