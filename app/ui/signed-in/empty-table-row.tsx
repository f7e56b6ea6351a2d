/** The one row a table shows when it has nothing to list. */
export function EmptyTableRow({ columns, children }: { columns: number; children: string }) {
  return (
    <tr>
      <td colSpan={columns} className="px-4 py-6 text-center text-slate-500">
        {children}
      </td>
    </tr>
  );
}
