import { revisionDateText, type LegalBlock, type LegalDocument } from "./legal-document";

export function LegalPage({ document }: { document: LegalDocument }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-20">
      <h1 className="text-4xl font-bold tracking-tight">{document.title}</h1>
      <p className="mt-3 text-sm text-slate-500">
        Última actualización:{" "}
        <time dateTime={document.updatedOn}>{revisionDateText(document.updatedOn)}</time>
      </p>
      <p className="mt-8 text-lg leading-8 text-slate-700">{document.intro}</p>
      {document.sections.map((section) => (
        <section key={section.heading} id={section.anchor} className="mt-10 scroll-mt-24">
          <h2 className="text-xl font-semibold">{section.heading}</h2>
          <div className="mt-4 space-y-4 leading-7">
            {section.blocks.map((block, index) => (
              <Block key={index} block={block} />
            ))}
          </div>
        </section>
      ))}
    </article>
  );
}

function Block({ block }: { block: LegalBlock }) {
  switch (block.kind) {
    case "paragraph":
      return <p>{block.text}</p>;
    case "list":
      return (
        <ul className="list-disc space-y-2 pl-6">
          {block.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      );
    case "table":
      return (
        <div className="overflow-x-auto rounded-lg ring-1 ring-slate-200">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-ink">
              <tr>
                {block.header.map((cell) => (
                  <th key={cell} scope="col" className="px-4 py-3 font-semibold">
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {block.rows.map((row) => (
                <tr key={row.join("|")}>
                  {row.map((cell, index) => (
                    <td key={index} className="px-4 py-3 align-top">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}
