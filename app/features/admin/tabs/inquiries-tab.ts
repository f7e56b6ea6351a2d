/** Consultas' status filter: every enquiry, those waiting for an answer, those staff handled. */
export const inquiryFilters = [
  { value: "all", label: "Todas" },
  { value: "pending", label: "Pendientes" },
  { value: "handled", label: "Atendidas" },
] as const;

export type InquiryFilter = (typeof inquiryFilters)[number]["value"];
