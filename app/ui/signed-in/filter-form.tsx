import { Filter } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "~/ui/button";
import { cardClasses } from "~/ui/form";

/**
 * A staff list's filters (a GET form, so the address holds them): the fields, what was typed
 * but could not be applied, then 'Filtrar' and 'Quitar filtros' (back to `resetTo`). Give it a
 * `key` made of the filters, so 'Quitar filtros' empties the fields.
 */
export function FilterForm({
  resetTo,
  notApplied,
  children,
  ...labelling
}: {
  resetTo: string;
  /** One sentence per filter that was not valid and so not applied. */
  notApplied: readonly string[];
  children: ReactNode;
} & ({ role: "search"; "aria-label": string } | { "aria-labelledby": string })) {
  return (
    <Form method="get" className={`${cardClasses} mt-6`} {...labelling}>
      {children}
      {notApplied.length > 0 ? (
        <ul role="alert" className="mt-3 space-y-1 text-sm text-red-700">
          {notApplied.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit">
          <Filter className="size-4" aria-hidden />
          Filtrar
        </Button>
        <Link to={resetTo} className="text-sm font-semibold text-brand-700 underline">
          Quitar filtros
        </Link>
      </div>
    </Form>
  );
}
