import type { ReactNode } from "react";
import { EmptyTableRow } from "./empty-table-row";

/**
 * The tables of the signed-in pages (admin lists, /test-pagos): a named, scrollable table with
 * one header row, and one row with `emptyText` when there is nothing to list.
 */
export function DataTable({
  caption,
  headers,
  emptyText,
  className = "",
  children,
}: {
  caption: string;
  headers: readonly string[];
  /** Shown when set: the table has no rows. */
  emptyText?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // A region the keyboard can reach: on a phone the table scrolls sideways inside it.
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className={`overflow-x-auto rounded-xl ring-1 ring-slate-200 ${className}`}
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="px-4 py-3 font-semibold whitespace-nowrap">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {children}
          {emptyText ? <EmptyTableRow columns={headers.length}>{emptyText}</EmptyTableRow> : null}
        </tbody>
      </table>
    </div>
  );
}
