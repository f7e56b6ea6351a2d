import { ButtonLink } from "~/ui/button";

/** The 404 page body (the spec keeps its heading in English: 'Page not found'). */
export function NotFoundMessage() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">Page not found</h1>
      <p className="mt-4 text-slate-600">La página que buscas no existe o se ha movido.</p>
      <ButtonLink to="/" className="mt-8">
        Volver al inicio
      </ButtonLink>
    </section>
  );
}
