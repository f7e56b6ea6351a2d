import type { ReactNode } from "react";

export type StatCard = {
  label: string;
  /** Shown as '—' when unknown (the figure could not be read). */
  value: ReactNode;
  /** On a phone, a row of its own (money such as '12.345.678,90€' needs it). */
  wide?: boolean;
};

/** A row of figures, each a label over its value: Mi Cuenta, the dashboard and Analítica. */
export function StatCardGrid({ cards, columns }: { cards: StatCard[]; columns: string }) {
  return (
    <dl className={`grid grid-cols-2 gap-3 sm:gap-4 ${columns}`}>
      {cards.map((card) => (
        <div
          key={card.label}
          className={`min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5 ${
            card.wide ? "col-span-2 md:col-span-1" : ""
          }`}
        >
          <dt className="text-sm text-slate-600">{card.label}</dt>
          <dd className="mt-1 text-xl font-bold break-words text-ink tabular-nums sm:text-2xl">
            {card.value ?? "—"}
          </dd>
        </div>
      ))}
    </dl>
  );
}
