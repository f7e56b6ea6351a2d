import type { ReactNode } from "react";

export type Fact = { label: string; value: ReactNode };

/** A record's facts, each a label over its value (a staff page's sale, a ticket's data). */
export function FactList({ facts, className }: { facts: readonly Fact[]; className: string }) {
  return (
    <dl className={className}>
      {facts.map((fact) => (
        <div key={fact.label}>
          <dt className="text-slate-600">{fact.label}</dt>
          <dd className="mt-0.5 font-medium text-ink">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
