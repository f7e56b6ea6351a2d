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
    // A region the keyboard can reach: on a phone the table scrolls sideways inside it, its
    // first column stays in place and the end fades while more columns are hidden (app.css).
    <div className={`overflow-hidden rounded-xl ring-1 ring-slate-200 ${className}`}>
      <div
        role="region"
        aria-label={caption}
        tabIndex={0}
        className="scroll-fade-end overflow-x-auto focus-visible:-outline-offset-2"
      >
        <table className="w-full text-left text-sm max-sm:[&_tr>*:first-child]:sticky max-sm:[&_tr>*:first-child]:left-0 max-sm:[&_tr>*:first-child]:z-10 max-sm:[&_tr>*:first-child]:bg-white max-sm:[&_thead_tr>*:first-child]:bg-slate-50">
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
    </div>
  );
}
