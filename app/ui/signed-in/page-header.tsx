import type { ReactNode } from "react";

/** The title of a staff page, with its actions on the right (for example 'Exportar CSV'). */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{title}</h1>
      {children}
    </div>
  );
}
