import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatCount } from "~/ui/numbers";

type Slot = number | "gap";

/**
 * The page numbers a pager offers: the first, the last (unless the total is only a lower bound)
 * and the neighbours of the current page, with a gap where numbers are left out. A gap never
 * stands for a single number: that number is shown instead.
 */
export function pageSlots(current: number, pages: number, capped: boolean): Slot[] {
  const wanted = new Set([1, current - 1, current, current + 1]);
  if (!capped) wanted.add(pages);
  const shown = [...wanted].filter((page) => page >= 1 && page <= pages).sort((a, b) => a - b);
  const slots: Slot[] = [];
  let previous = 0;
  for (const page of shown) {
    if (page - previous === 2) slots.push(previous + 1);
    else if (page - previous > 2) slots.push("gap");
    slots.push(page);
    previous = page;
  }
  return slots;
}

const itemBase =
  "inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-lg px-2.5 text-sm font-semibold";
const itemIdle = "bg-white text-ink ring-1 ring-slate-300 ring-inset hover:bg-slate-50";
const itemCurrent = "bg-brand-600 text-white";
const itemOff = "bg-slate-100 text-slate-600";

/**
 * A pager of links (it works without JavaScript): 'Mostrando 26–50 de 1.000', 'Anterior',
 * a few page numbers and 'Siguiente'. `hrefOf(n)` is the address of page `n`, which keeps
 * whatever else the list's address holds (search, filter, order, page size).
 */
export function Pagination({
  page,
  pages,
  size,
  total,
  capped = false,
  hrefOf,
  className = "",
}: {
  /** 1-based. */
  page: number;
  pages: number;
  size: number;
  total: number;
  /** `total` is a lower bound: the list holds more than that many rows. */
  capped?: boolean;
  hrefOf: (page: number) => string;
  className?: string;
}) {
  const first = total === 0 ? 0 : (page - 1) * size + 1;
  const last = Math.min(page * size, total);
  const slots = pages > 1 ? pageSlots(page, pages, capped) : [];
  return (
    <nav
      aria-label="Paginación"
      className={`flex flex-wrap items-center justify-between gap-3 ${className}`}
    >
      <p className="text-sm text-slate-600">
        {total === 0 ? (
          "Ningún resultado"
        ) : (
          <>
            Mostrando{" "}
            <span className="font-semibold text-ink">
              {formatCount(first)}–{formatCount(last)}
            </span>{" "}
            de{" "}
            <span className="font-semibold text-ink">
              {capped ? "más de " : ""}
              {formatCount(total)}
            </span>
          </>
        )}
      </p>
      {pages > 1 ? (
        <ul className="flex flex-wrap items-center gap-1.5">
          <li>
            <Step to={page > 1 ? hrefOf(page - 1) : null} rel="prev">
              <ChevronLeft className="size-4" aria-hidden />
              Anterior
            </Step>
          </li>
          {slots.map((slot, index) =>
            slot === "gap" ? (
              <li key={`gap-${index}`} className="hidden px-1 text-slate-600 sm:block" aria-hidden>
                …
              </li>
            ) : (
              // On a phone only the current page's number is shown between the two steps.
              <li key={slot} className={slot === page ? "" : "hidden sm:block"}>
                <Link
                  to={hrefOf(slot)}
                  aria-label={`Página ${formatCount(slot)}`}
                  aria-current={slot === page ? "page" : undefined}
                  className={`${itemBase} ${slot === page ? itemCurrent : itemIdle}`}
                >
                  {formatCount(slot)}
                </Link>
              </li>
            ),
          )}
          <li>
            <Step to={page < pages ? hrefOf(page + 1) : null} rel="next">
              Siguiente
              <ChevronRight className="size-4" aria-hidden />
            </Step>
          </li>
        </ul>
      ) : null}
    </nav>
  );
}

/** 'Anterior' or 'Siguiente': a link, or a marked-off label on the first or last page. */
function Step({
  to,
  rel,
  children,
}: {
  to: string | null;
  rel: "prev" | "next";
  children: ReactNode;
}) {
  if (!to) return <span className={`${itemBase} ${itemOff}`}>{children}</span>;
  return (
    <Link to={to} rel={rel} className={`${itemBase} ${itemIdle}`}>
      {children}
    </Link>
  );
}
